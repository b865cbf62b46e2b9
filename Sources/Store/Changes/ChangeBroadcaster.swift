/// Hands each published `StoreChanges` to the subscribers whose tables it touches, in
/// publication order. Delivery only enqueues, so publishing never waits for a subscriber.
final class ChangeBroadcaster: Sendable {
    private struct Subscriber {
        /// Lowercased table names, or `nil` for all tables.
        let tables: Set<String>?
        let deliver: @Sendable (StoreChanges) -> Void
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// Adds a subscriber; `deliver` must not block.
    func subscribe(tables: Set<String>?, deliver: @escaping @Sendable (StoreChanges) -> Void) -> UInt64 {
        let subscriber = Subscriber(tables: tables.map { Set($0.map { $0.lowercased() }) }, deliver: deliver)
        return state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = subscriber
            return state.nextID
        }
    }

    func unsubscribe(_ id: UInt64) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    /// Delivers `changes` to every subscriber interested in one of its tables.
    ///
    /// Runs under the lock so that two publications can never interleave for one subscriber.
    func publish(_ changes: StoreChanges) {
        state.withLock { state in
            for subscriber in state.subscribers.values where changes.touches(anyOf: subscriber.tables) {
                subscriber.deliver(changes)
            }
        }
    }
}
