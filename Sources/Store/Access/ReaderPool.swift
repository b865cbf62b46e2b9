/// A fixed set of read-only connections handed out one job at a time.
final class ReaderPool: Sendable {
    private struct State {
        var available: [SerializedConnection]
        var waiters: [@Sendable (SerializedConnection) -> Void] = []
    }
    let readers: [SerializedConnection]
    private let state: Locked<State>

    init(readers: [SerializedConnection]) {
        self.readers = readers
        self.state = Locked(State(available: readers.reversed()))
    }

    /// Calls `handler` with a reader as soon as one is free (at once when one is).
    func checkout(_ handler: @escaping @Sendable (SerializedConnection) -> Void) {
        let reader: SerializedConnection? = state.withLock { state in
            if let reader = state.available.popLast() { return reader }
            state.waiters.append(handler)
            return nil
        }
        if let reader { handler(reader) }
    }

    /// Returns a reader to the pool, or hands it to the oldest waiter.
    func checkin(_ reader: SerializedConnection) {
        let waiter: (@Sendable (SerializedConnection) -> Void)? = state.withLock { state in
            if state.waiters.isEmpty {
                state.available.append(reader)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?(reader)
    }

    /// The reader serving `role`, if it belongs to this pool.
    func reader(for role: ConnectionRole) -> SerializedConnection? {
        guard case .reader(let index) = role, readers.indices.contains(index) else { return nil }
        return readers[index]
    }
}
