/// The changes of a store's committed transactions, in commit order, as an asynchronous
/// sequence (see `Store.changes(in:coalescing:)`): one element per transaction, or, when
/// coalescing, every transaction committed while the consumer was busy merged into the next
/// element.
public struct StoreChangeSequence: AsyncSequence, Sendable {
    public typealias Element = StoreChanges

    /// Rings once per publication; holds at most one ring, so it never grows.
    let doorbell: AsyncStream<Void>
    let pending: PendingChanges

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(rings: doorbell.makeAsyncIterator(), pending: pending)
    }

    /// Waits for changes and hands them over in commit order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var rings: AsyncStream<Void>.AsyncIterator
        let pending: PendingChanges

        /// The changes of the next transaction (when coalescing, of every transaction
        /// committed since the previous element, merged); `nil` once the consuming task is
        /// cancelled, or once the store failed and every change published before was taken.
        public mutating func next() async -> StoreChanges? {
            while !Task.isCancelled {
                if let changes = pending.take() { return changes }
                // A ring may be stale (its changes taken already): then look again.
                if await rings.next() == nil { break }
            }
            return nil
        }
    }
}
