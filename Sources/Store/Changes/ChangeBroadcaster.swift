import Dispatch

/// Hands each published `StoreChanges` to the subscribers whose tables it touches, in
/// publication order, and the store's failure to all of them. Delivery only enqueues, so
/// publishing never waits for a subscriber.
///
/// A failure is terminal: it ends every subscription, after the changes published before it;
/// nothing is published afterwards, and a later subscriber gets the failure at once.
final class ChangeBroadcaster: Sendable {
    private struct Subscriber {
        /// Lowercased table names, or `nil` for all tables.
        let tables: Set<String>?
        let deliver: @Sendable (StoreChanges) -> Void
        let fail: @Sendable (StoreError) -> Void
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var failure: StoreError?
    }

    private let state = Locked(State())

    /// Adds a subscriber; `deliver` and `fail` must not block. Once the store has failed,
    /// `fail` is called at once and nothing is subscribed. Without `fail`, a subscriber only
    /// stops receiving changes when the store fails.
    func subscribe(
        tables: Set<String>?, deliver: @escaping @Sendable (StoreChanges) -> Void,
        fail: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) -> UInt64 {
        let subscriber = Subscriber(tables: tables.map { Set($0.map(\.sqliteIdentifierFolded)) }, deliver: deliver, fail: fail)
        let (id, failure) = state.withLock { state in
            state.nextID += 1
            if state.failure == nil { state.subscribers[state.nextID] = subscriber }
            return (state.nextID, state.failure)
        }
        if let failure { fail(failure) }
        return id
    }

    func unsubscribe(_ id: UInt64) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// Unsubscribes from an `AsyncStream`'s termination handler, on another thread. The handler
    /// runs inside the cancellation of the consuming task, which holds that task's lock, while
    /// `publish`, holding this broadcaster's lock, may be yielding into the same stream, which
    /// needs the task's lock: unsubscribing there at once deadlocks. The stream drops what is
    /// yielded after its end, so the subscriber can stay listed until the call runs.
    func unsubscribeSoon(_ id: UInt64) {
        DispatchQueue.global().async { [self] in unsubscribe(id) }
    }

    var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    /// The failure that ended every subscription, if any.
    var failure: StoreError? { state.withLock { $0.failure } }

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

    /// Ends every subscription with `error`, the first failure only.
    ///
    /// The subscribers are told outside the lock (ending a stream unsubscribes it), after
    /// every publication that held the lock before: none reaches them afterwards.
    func fail(_ error: StoreError) {
        let subscribers = state.withLock { state in
            guard state.failure == nil else { return [Subscriber]() }
            state.failure = error
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.fail(error) }
    }
}
