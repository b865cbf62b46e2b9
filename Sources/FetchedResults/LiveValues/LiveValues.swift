import SQLiteStoreCore

/// The results of a request with their values, as an asynchronous sequence consumed on any
/// actor: the first element holds the current values, and each later one the change set
/// from the previous values and the new ones, as GRDB's `ValueObservation.values(in:)` does,
/// but with the change set and without reading the unchanged rows again.
///
/// ```swift
/// actor Exporter {
///     var titles: [String] = []
///     func follow(_ store: Store) async throws {
///         let request = StoreRequest<Item>().order(Column("title").ascending)
///         for try await change in LiveValues(request, in: store) {
///             titles = change.values.map(\.title)
///         }
///     }
/// }
/// ```
///
/// - **Exact.** Every element's change set applies to the previous element's results and
///   leads to its own, and its values are those of one committed transaction (or of several
///   merged while the consumer was busy). Rows a change does not touch keep their values.
/// - **Precise.** After the first read, a transaction costs the rows it changes: they are
///   read again, with their objects, and merged into the results (O(k log n) for k changed
///   rows of n, as a ``FetchedResultsController`` does), and the new values share the
///   storage of the previous ones.
/// - **Start and end.** Each iterator follows the store on its own, from its first `next()`
///   (which reads every row) until it is released, its task is cancelled, or the store fails
///   (a dropped table, a row that does not decode), which it throws.
///
/// A request that includes related objects (`including`) is followed too: the values are its
/// models, and a row whose included objects, counts or aggregates change is reported updated,
/// in the same change set as the rest of its transaction.
///
/// The request's batch size is ignored: every object is kept. For a list that shows a
/// screenful of a large table, use a ``FetchedResultsController``, which reads objects as
/// they are shown.
public struct LiveValues<M: StoreModel>: AsyncSequence, Sendable {
    public typealias Element = FetchedValuesChange<M>
    public typealias Failure = FetchedResultsError

    private let request: StoreRequest<M>
    private let store: Store

    /// The values of `request` in `store`, read by each iterator's first `next()`.
    public init(_ request: StoreRequest<M>, in store: Store) {
        self.request = request
        self.store = store
    }

    public func makeAsyncIterator() -> Iterator { Iterator(request: request, store: store) }

    /// Follows the store for one consumer: it reads the values at its first `next()`.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private let request: StoreRequest<M>
        private let store: Store
        /// The values following the store, once started.
        private var followed: FollowedValues<M>?
        private var isFinished = false

        fileprivate init(request: StoreRequest<M>, store: Store) {
            self.request = request
            self.store = store
        }

        /// The next values, on the caller's actor: the first ones at once, later ones when a
        /// transaction changes them; `nil` once the task is cancelled. Throws the failure that
        /// stopped the values from following the store, then ends.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(FetchedResultsError)
            -> FetchedValuesChange<M>?
        {
            guard !isFinished else { return nil }
            do {
                guard followed != nil else { return try await start() }
                while !Task.isCancelled, var current = followed {
                    let wakeUp = WakeUp()
                    let taken = try current.take(orWake: wakeUp.signal)
                    followed = current
                    if case .change(let change) = taken { return change }
                    guard case .nothing = taken else { break }
                    await withTaskCancellationHandler {
                        await wakeUp.wait(isolation: actor)
                    } onCancel: {
                        wakeUp.signal()
                    }
                }
            } catch {
                finish()
                throw error
            }
            finish()
            return nil
        }

        /// The next values, on the caller's actor (see ``next(isolation:)``).
        public nonisolated(nonsending) mutating func next() async throws(FetchedResultsError) -> FetchedValuesChange<M>? {
            try await next(isolation: #isolation)
        }

        /// The change of every transaction committed before the call, or `nil` when they change
        /// nothing: `next()` without waiting for later ones (tests).
        mutating func nextOfCommitted() async throws(FetchedResultsError) -> FetchedValuesChange<M>? {
            guard var current = followed else { return try await next() }
            await current.engine.flush()
            let taken = try current.take(orWake: {})
            followed = current
            guard case .change(let change) = taken else { return nil }
            return change
        }

        private mutating func start() async throws(FetchedResultsError) -> FetchedValuesChange<M> {
            let started = try await FollowedValues.start(request, in: store)
            followed = started
            return started.firstChange
        }

        /// Stops following the store.
        private mutating func finish() {
            isFinished = true
            followed = nil
        }
    }
}
