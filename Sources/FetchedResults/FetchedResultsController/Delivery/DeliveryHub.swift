import SQLiteStoreCore

/// Where a controller's engine leaves its changes for each of its consumers (the controller
/// itself and every `changes()` sequence), and how each consumer takes them.
///
/// Each consumer has at most one `PendingDelivery`: a transaction arriving while the consumer
/// is busy merges into it, so memory is bounded by the results, not by the number of
/// transactions, and nothing is lost or reordered. A failure follows the consumer's pending
/// change, then the consumer is finished. Everything is under one lock, so that the main actor
/// can take a stream's change and the controller's together and keep them in step.
final class DeliveryHub<M: StoreModel>: Sendable {
    /// What a consumer takes.
    enum Taken: Sendable {
        case change(PendingDelivery<M>)
        case failure(FetchedResultsError)
        /// The controller was released, or the consumer was cancelled.
        case finished
        case nothing
    }

    private struct Consumer {
        var pending: PendingDelivery<M>?
        var failure: FetchedResultsError?
        var isFinished = false
        /// Whether the consumer wants the first results as an initial change, once there are some.
        var wantsInitial: Bool
        /// The controller's own consumer: it takes objects with the changes, keeps its `wake`,
        /// and outlives failures (the controller can fetch again); a stream ends with its failure.
        let isPersistent: Bool
        /// Called once something arrives: a waiting stream's continuation (one-shot) or the
        /// controller's scheduler (kept).
        var wake: (@Sendable () -> Void)?

        /// Whether taking would find something the consumer acts on: a pending change, a
        /// failure, or (for a stream, which then ends) the end. The controller's drain does
        /// nothing with its end: it is the controller's release that ends it.
        var hasNews: Bool { pending != nil || failure != nil || (isFinished && !isPersistent) }
    }

    private struct State {
        /// The results every consumer will have once it takes what is pending, and their
        /// table; `nil` before the first fetch.
        var latest: (index: ResultIndex, table: String)?
        var consumers: [Int: Consumer] = [owner: Consumer(wantsInitial: false, isPersistent: true)]
        var nextID = owner
        var isClosed = false
    }

    /// The controller's own consumer's identifier.
    static var owner: Int { 0 }

    private let state = Locked(State())

    // MARK: Consumers

    /// Has `wake` called after every arrival for the owner (the controller schedules its drain).
    func setOwnerWake(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.consumers[Self.owner]?.wake = wake }
    }

    /// Adds a stream's consumer whose results are the latest ones (or, with `initial`, none:
    /// its first change is then the initial one).
    func addConsumer(initial: Bool) -> Int {
        state.withLock { state in
            state.nextID += 1
            var consumer = Consumer(wantsInitial: initial, isPersistent: false)
            if state.isClosed { consumer.isFinished = true }
            if initial, let latest = state.latest {
                consumer.pending = .initial(latest.index, table: latest.table)
                consumer.wantsInitial = false
            }
            state.consumers[state.nextID] = consumer
            return state.nextID
        }
    }

    func removeConsumer(_ id: Int) {
        let wake = state.withLock { state in state.consumers.removeValue(forKey: id)?.wake }
        wake?()
    }

    // MARK: Engine side

    /// The results of a fresh start: consumers waiting for initial results get them; every
    /// other consumer's pending change and failure are dropped (the controller shows `index`).
    func start(with index: ResultIndex, table: String) {
        distribute { state in
            state.latest = (index, table)
            for (id, consumer) in state.consumers where !consumer.isFinished {
                if consumer.isPersistent { state.consumers[id]?.failure = nil }
                if state.consumers[id]?.wantsInitial == true {
                    state.consumers[id]?.pending = .initial(index, table: table)
                    state.consumers[id]?.wantsInitial = false
                } else {
                    state.consumers[id]?.pending = nil
                }
            }
        }
    }

    /// Forgets the failure the controller's own consumer has not taken yet: it fetches again.
    func clearPersistentFailures() {
        state.withLock { state in
            for (id, consumer) in state.consumers where consumer.isPersistent { state.consumers[id]?.failure = nil }
        }
    }

    /// Merges one step (from the latest results to newer ones) into every consumer's pending change.
    func post(_ step: PendingDelivery<M>) {
        distribute { state in
            state.latest = (step.result, step.table)
            for (id, consumer) in state.consumers where !consumer.isFinished && consumer.failure == nil && !consumer.wantsInitial {
                var step = step
                if !consumer.isPersistent { step.objects = nil }
                if state.consumers[id]?.pending == nil {
                    state.consumers[id]?.pending = step
                } else {
                    state.consumers[id]?.pending?.merge(step)
                }
            }
        }
    }

    /// Ends every consumer with `error`, after what they have pending.
    func fail(_ error: FetchedResultsError) {
        distribute { state in
            for id in state.consumers.keys where state.consumers[id]?.isFinished == false {
                state.consumers[id]?.failure = error
            }
        }
    }

    /// Finishes every consumer (the controller is gone), after what they have pending.
    func close() {
        distribute { state in
            state.isClosed = true
            for id in state.consumers.keys { state.consumers[id]?.isFinished = true }
        }
    }

    /// Changes the state, then wakes the consumers that now have news, outside the lock. The
    /// others are left asleep: every first fetch and every release woke the controller for
    /// nothing, a hop to the main queue each for a drain that found nothing to take.
    private func distribute(_ change: (inout State) -> Void) {
        let wakes = state.withLock { state in
            change(&state)
            // Waiting streams first: they hop straight to their consumer, the controller after them.
            var streams: [@Sendable () -> Void] = []
            var controllers: [@Sendable () -> Void] = []
            for (id, consumer) in state.consumers where consumer.hasNews {
                guard let wake = consumer.wake else { continue }
                if consumer.isPersistent {
                    controllers.append(wake)
                } else {
                    streams.append(wake)
                    state.consumers[id]?.wake = nil
                }
            }
            return streams + controllers
        }
        for wake in wakes { wake() }
    }

    // MARK: Consumer side

    /// Takes what consumer `id` has: its pending change first, then its failure or its end.
    func take(_ id: Int) -> Taken {
        state.withLock { state in Self.take(id, from: &state) }
    }

    /// Takes what consumer `id` has, or, when it has nothing, has `wake` called once something
    /// arrives. With `other`, takes that consumer's pending change at the same time as a change
    /// for `id`, so that both then show the same results.
    func take(_ id: Int, along other: Int?, orWake wake: @escaping @Sendable () -> Void) -> (Taken, PendingDelivery<M>?) {
        state.withLock { state in
            let taken = Self.take(id, from: &state)
            switch taken {
            case .nothing:
                state.consumers[id]?.wake = wake
                return (taken, nil)
            case .change:
                guard let other else { return (taken, nil) }
                defer { state.consumers[other]?.pending = nil }
                return (taken, state.consumers[other]?.pending)
            case .failure, .finished:
                return (taken, nil)
            }
        }
    }

    private static func take(_ id: Int, from state: inout State) -> Taken {
        guard let consumer = state.consumers[id] else { return .finished }
        if let pending = consumer.pending {
            state.consumers[id]?.pending = nil
            return .change(pending)
        }
        if let failure = consumer.failure {
            state.consumers[id]?.isFinished = !consumer.isPersistent
            state.consumers[id]?.failure = nil
            return .failure(failure)
        }
        return consumer.isFinished ? .finished : .nothing
    }
}
