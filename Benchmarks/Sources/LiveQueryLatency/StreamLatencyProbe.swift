import BenchmarkKit
import SQLiteStoreCore
import SQLiteStoreResults
import StoreContender

/// A live query as an app writes it: a controller over `request`, its changes consumed by a
/// `for try await` loop in a task on the main actor, which stamps the time each change set
/// reaches it.
@MainActor
final class StreamLatencyProbe {
    /// How long one change took: until `store.write` returned, and until the consumer held it.
    struct Sample {
        var write: Duration
        var receipt: Duration
    }

    private let store: Store
    private let controller: FetchedResultsController<Item>
    private var receipts: AsyncStream<ContinuousClock.Instant>.Iterator
    private let consumer: Task<Void, any Error>

    /// Opens the database at `databasePath`, fetches the live query, waits for its complete
    /// results and starts its consumer.
    init(databasePath: String, request: StoreRequest<Item>) throws {
        store = try Store(path: databasePath)
        controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        try controller.catchUp()
        let (stream, stamps) = AsyncStream<ContinuousClock.Instant>.makeStream()
        receipts = stream.makeAsyncIterator()
        let changes = controller.changes()
        consumer = Task { @MainActor in
            for try await change in changes where !change.changeSet.isEmpty { stamps.yield(.now) }
        }
    }

    isolated deinit { consumer.cancel() }

    /// Stamps the time, runs `change` in one `store.write`, and waits for the consumer's stamp.
    func measure(_ change: @escaping @Sendable (Database) throws -> Void) async throws -> Sample {
        let start = ContinuousClock.now
        try await store.write { db in try change(db) }
        let written = ContinuousClock.now
        var receipts = self.receipts
        let received = await receipts.next(isolation: #isolation)
        self.receipts = receipts
        guard let received else { throw ConsumerEndedError() }
        return Sample(write: written - start, receipt: received - start)
    }
}

/// The consumer's loop ended although the probe was still in use.
struct ConsumerEndedError: Error, CustomStringConvertible {
    var description: String { "the changes() consumer ended" }
}
