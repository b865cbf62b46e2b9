import SQLiteStoreCore

/// The changes of a ``FetchedResultsController``, as an asynchronous sequence consumed on any
/// actor: each element is the step from the results the consumer last saw to the latest ones.
///
/// ```swift
/// for try await change in controller.changes(initial: true) {
///     apply(change.changeSet)          // on the actor running the loop
/// }
/// ```
///
/// - **Coalescing.** Transactions that commit while the consumer is busy merge into one
///   element: the sequence holds at most one pending change (the results it leads from and
///   to, and the changed rowids), so memory stays bounded by the results, whatever the
///   consumer's speed. Nothing is lost or reordered, and empty changes are skipped.
/// - **Isolation.** The loop's body runs on the caller's actor (`next(isolation:)`), reached
///   in one hop from the controller's engine. On the main actor, each element arrives
///   together with the controller's own update: when an element is returned, the controller
///   (`sections`, `object(at:)`, `didChange` handlers) shows exactly the element's results.
/// - **Start.** The first call to `next()` fetches if the controller has not fetched yet
///   (as `performFetch()` does, throwing its error), so a sequence needs nothing else to
///   start. With `initial: true` the first element holds the current results and
///   `isInitial`; its change set inserts every section into a list that has none, whatever
///   the number of rows.
/// - **End.** The sequence ends when the controller is released or the consuming task is
///   cancelled, and throws the controller's failure (a dropped table, a schema change that
///   breaks the request, a row that does not decode) after every change that preceded it.
///
/// Each call to `makeAsyncIterator()` of one sequence shares its position: consume a
/// sequence from one task.
public struct FetchedResultsChanges: AsyncSequence, Sendable {
    public typealias Element = FetchedResultsChange
    public typealias Failure = FetchedResultsError

    private let subscription: ChangesSubscription

    /// A new consumer of `hub`; `fetchIfNeeded` runs before the first element is taken, and on
    /// the main actor `deliverToOwner` gets the controller's pending change taken along with
    /// each element.
    init<M: StoreModel>(
        hub: DeliveryHub<M>, initial: Bool,
        fetchIfNeeded: @escaping @MainActor @Sendable () throws(FetchedResultsError) -> Void,
        deliverToOwner: @escaping @MainActor @Sendable (PendingDelivery<M>?) -> Void
    ) {
        subscription = ChangesSubscription(
            hub: hub, initial: initial, fetchIfNeeded: fetchIfNeeded, deliverToOwner: deliverToOwner)
    }

    public func makeAsyncIterator() -> Iterator { Iterator(subscription: subscription) }

    /// Gives the elements of a ``FetchedResultsChanges`` sequence.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        fileprivate let subscription: ChangesSubscription

        /// The next change, on the caller's actor; `nil` once the controller is released or the
        /// task is cancelled. Throws the controller's failure.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(FetchedResultsError)
            -> FetchedResultsChange?
        {
            try await subscription.next(isolation: actor)
        }

        /// The next change, on the caller's actor (see ``next(isolation:)``).
        public nonisolated(nonsending) mutating func next() async throws(FetchedResultsError) -> FetchedResultsChange? {
            try await subscription.next(isolation: #isolation)
        }
    }
}

/// One consumer of a hub, with the model type erased; it ends when released.
final class ChangesSubscription: Sendable {
    private enum Step: Sendable {
        case element(FetchedResultsChange)
        case skip
        case failure(FetchedResultsError)
        case end
        case wait
    }

    /// Takes the next step, or arranges for the wake-up to be signalled; the flag says whether
    /// the caller is on the main actor (then the controller's change is taken and applied too).
    private let takeStep: @Sendable (_ onMainActor: Bool, _ wake: @escaping @Sendable () -> Void) -> Step
    private let cancel: @Sendable () -> Void
    /// Fetches if the controller has not; taken by the first `next()`.
    private let fetchIfNeeded: Locked<(@MainActor @Sendable () throws(FetchedResultsError) -> Void)?>

    init<M: StoreModel>(
        hub: DeliveryHub<M>, initial: Bool,
        fetchIfNeeded: @escaping @MainActor @Sendable () throws(FetchedResultsError) -> Void,
        deliverToOwner: @escaping @MainActor @Sendable (PendingDelivery<M>?) -> Void
    ) {
        self.fetchIfNeeded = Locked(fetchIfNeeded)
        let id = hub.addConsumer(initial: initial)
        takeStep = { onMainActor, wake in
            guard onMainActor else { return Self.step(hub.take(id, along: nil, orWake: wake).0) }
            return MainActor.assumeIsolated {
                let (taken, owners) = hub.take(id, along: DeliveryHub<M>.owner, orWake: wake)
                deliverToOwner(owners)
                return Self.step(taken)
            }
        }
        cancel = { hub.removeConsumer(id) }
    }

    deinit { cancel() }

    private static func step<M: StoreModel>(_ taken: DeliveryHub<M>.Taken) -> Step {
        switch taken {
        case .change(var pending):
            let changeSet = pending.resolvedChangeSet()
            guard !changeSet.isEmpty || pending.isInitial else { return .skip }
            return .element(FetchedResultsChange(changeSet: changeSet, results: pending.snapshot, isInitial: pending.isInitial))
        case .failure(let error): return .failure(error)
        case .finished: return .end
        case .nothing: return .wait
        }
    }

    func next(isolation actor: isolated (any Actor)?) async throws(FetchedResultsError) -> FetchedResultsChange? {
        let onMainActor = actor.map { $0 === MainActor.shared } ?? false
        let fetch = fetchIfNeeded.withLock { fetch in
            defer { fetch = nil }
            return fetch
        }
        if let fetch { try await fetch() }
        while !Task.isCancelled {
            let wakeUp = WakeUp()
            switch takeStep(onMainActor, wakeUp.signal) {
            case .element(let change): return change
            case .failure(let error): throw error
            case .end: return nil
            case .skip: continue
            case .wait:
                await withTaskCancellationHandler {
                    await wakeUp.wait(isolation: actor)
                } onCancel: {
                    wakeUp.signal()
                }
            }
        }
        cancel()
        return nil
    }
}
