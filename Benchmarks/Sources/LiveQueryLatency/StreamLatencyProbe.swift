import BenchmarkKit
import Observation
import SQLiteStoreCore
import SQLiteStoreResults
import StoreContender

/// A live query as an app writes it: a controller over `request` whose changes reach a
/// consumer on the main actor (see `LatencyArguments.Consumer`), which stamps the time each
/// change reaches it.
@MainActor
final class StreamLatencyProbe<M: StoreModel> {
    private let store: Store
    /// The controller of the `changes()` consumers; `nil` for `.live`.
    private let controller: FetchedResultsController<M>?
    private let live: LiveResults<M>?
    private let stamps: AsyncStream<ContinuousClock.Instant>.Continuation
    private var receipts: AsyncStream<ContinuousClock.Instant>.Iterator
    private var consumer: Task<Void, any Error>?
    /// The results the consumer keeps until the next change, as a diffable data source keeps
    /// its last snapshot.
    private var kept: FetchedResultsSnapshot?

    /// Opens the database at `databasePath`, fetches the live query, waits for its complete
    /// results and starts its consumer (for `.live`, `LiveResults` of the same request, which
    /// follow the store on their own and keep every object).
    init(databasePath: String, request: StoreRequest<M>, consumer kind: LatencyArguments.Consumer) async throws {
        store = try StoreDatabase.open(atPath: databasePath)
        let (stream, stamps) = AsyncStream<ContinuousClock.Instant>.makeStream()
        self.stamps = stamps
        receipts = stream.makeAsyncIterator()
        guard kind != .live else {
            let live = LiveResults(request, in: store)
            try await live.waitUntilCurrent()
            self.live = live
            controller = nil
            kept = live.results
            return
        }
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        try controller.catchUp()
        self.controller = controller
        live = nil
        let changes = controller.changes()
        let keeps = kind == .keeping
        consumer = Task { @MainActor [weak self] in
            for try await change in changes where !change.changeSet.isEmpty {
                stamps.yield(.now)
                if keeps { self?.kept = change.results }
            }
        }
    }

    isolated deinit { consumer?.cancel() }

    /// Stamps the time, runs `change` in one `store.write`, and waits for the consumer's stamp.
    func measure(_ change: @escaping @Sendable (Database) throws -> Void) async throws -> LatencySample {
        if let live {
            let stamps = stamps
            withObservationTracking {
                _ = live.lastChange
            } onChange: {
                stamps.yield(.now)
            }
        }
        let start = ContinuousClock.now
        try await store.write { db in try change(db) }
        let written = ContinuousClock.now
        var receipts = self.receipts
        let received = await receipts.next(isolation: #isolation)
        self.receipts = receipts
        guard let received else { throw ConsumerEndedError() }
        if let live { kept = live.results }
        return LatencySample(write: written - start, receipt: received - start)
    }
}

/// How long one change took: until `store.write` returned, and until the consumer held it.
struct LatencySample {
    var write: Duration
    var receipt: Duration
}

/// The consumer's loop ended although the probe was still in use.
struct ConsumerEndedError: Error, CustomStringConvertible {
    var description: String { "the changes() consumer ended" }
}
