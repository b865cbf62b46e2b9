import SQLiteStoreCore
import SQLiteStoreResults

/// A live list on device B as an app keeps it: a controller over every note ordered by title,
/// whose change sets a consumer on the main actor takes from `changes()` and stamps.
@MainActor
final class ChangeSetProbe {
    private let controller: FetchedResultsController<Note>
    private var receipts: AsyncStream<ContinuousClock.Instant>.Iterator
    private let stamps: AsyncStream<ContinuousClock.Instant>.Continuation
    private var consumer: Task<Void, any Error>?

    /// Fetches the list on `store` and waits for its complete results.
    init(store: Store) throws {
        controller = FetchedResultsController(store: store, request: StoreRequest<Note>().order(Column("title").ascending))
        try controller.performFetch()
        try controller.catchUp()
        let (stream, stamps) = AsyncStream<ContinuousClock.Instant>.makeStream()
        self.stamps = stamps
        receipts = stream.makeAsyncIterator()
        let changes = controller.changes()
        consumer = Task { @MainActor in
            for try await change in changes where !change.changeSet.isEmpty { stamps.yield(.now) }
        }
    }

    isolated deinit { consumer?.cancel() }

    /// How many notes the list holds.
    var count: Int { controller.numberOfObjects }

    /// Runs `write` and returns the time from its start to the next change set's arrival on
    /// the main actor, and the time `write` took; throws after `timeout` without a change set.
    func measure(timeout: Duration = .seconds(60), _ write: () async throws -> Void) async throws -> (receipt: Duration, write: Duration) {
        let stamps = stamps
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            stamps.finish()
        }
        defer { watchdog.cancel() }
        let start = ContinuousClock.now
        try await write()
        let written = ContinuousClock.now
        var receipts = self.receipts
        let received = await receipts.next(isolation: #isolation)
        self.receipts = receipts
        guard let received else { throw BenchmarkFailure(description: "no change set reached device B within \(timeout)") }
        return (received - start, written - start)
    }
}
