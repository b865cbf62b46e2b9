/// The changes of a store's committed transactions, with every transaction committed while
/// the consumer was busy merged into the next element (see `Store.coalescedChanges(in:)`).
public struct CoalescedStoreChanges: AsyncSequence, Sendable {
    public typealias Element = StoreChanges

    /// Rings once per publication; holds at most one ring, so it never grows.
    let doorbell: AsyncStream<Void>
    let pending: PendingChanges

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(rings: doorbell.makeAsyncIterator(), pending: pending)
    }

    /// Waits for changes and hands over all of them, merged.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var rings: AsyncStream<Void>.AsyncIterator
        let pending: PendingChanges

        /// The changes committed since the previous element, merged; `nil` once the
        /// consuming task is cancelled.
        public mutating func next() async -> StoreChanges? {
            while await rings.next() != nil {
                if let changes = pending.take() { return changes }
            }
            return nil
        }
    }
}
