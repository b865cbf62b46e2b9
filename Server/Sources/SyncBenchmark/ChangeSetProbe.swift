import SQLiteStoreCore
import SQLiteStoreResults

/// A live list on a device as an app keeps it: a controller over a request (every note ordered
/// by title, by default), whose change sets a consumer on the main actor takes from `changes()`
/// and stamps, with the number of objects the list holds after each.
@MainActor
final class ChangeSetProbe<Model: StoreModel> {
    /// A change set's arrival on the main actor.
    struct Receipt {
        let instant: ContinuousClock.Instant
        /// The objects in the list after the change set.
        let count: Int
    }

    private let controller: FetchedResultsController<Model>
    private var receipts: AsyncStream<Receipt>.Iterator
    private let stamps: AsyncStream<Receipt>.Continuation
    private var consumer: Task<Void, any Error>?

    /// Fetches `request` on `store` and waits for its complete results.
    init(store: Store, request: StoreRequest<Model>) throws {
        controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        try controller.catchUp()
        let (stream, stamps) = AsyncStream<Receipt>.makeStream()
        self.stamps = stamps
        receipts = stream.makeAsyncIterator()
        let changes = controller.changes()
        consumer = Task { @MainActor in
            for try await change in changes where !change.changeSet.isEmpty {
                stamps.yield(Receipt(instant: .now, count: change.results.numberOfObjects))
            }
        }
    }

    isolated deinit { consumer?.cancel() }

    /// How many objects the list holds.
    var count: Int { controller.numberOfObjects }

    /// Runs `write` and returns the time from its start to the arrival on the main actor of the
    /// first change set after which `done` holds (by default, the next change set), and the
    /// time `write` took; throws after `timeout` without one. Change sets that arrived before
    /// `write` started are passed over.
    func measure(
        timeout: Duration = .seconds(60), until done: (Receipt) -> Bool = { _ in true }, _ write: () async throws -> Void
    ) async throws -> (receipt: Duration, write: Duration) {
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
        defer { self.receipts = receipts }
        while true {
            guard let received = await receipts.next(isolation: #isolation) else {
                throw BenchmarkFailure(description: "no change set reached the device's list within \(timeout) (it holds \(count))")
            }
            if received.instant >= start && done(received) { return (received.instant - start, written - start) }
        }
    }
}

extension ChangeSetProbe where Model == Note {
    /// Every note of `store`, ordered by title.
    convenience init(store: Store) throws {
        try self.init(store: store, request: StoreRequest<Note>().order(Column("title").ascending))
    }
}
