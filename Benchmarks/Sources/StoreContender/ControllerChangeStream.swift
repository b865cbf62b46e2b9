import BenchmarkKit
import SQLiteStoreCore
import SQLiteStoreResults

/// A `FetchedResultsController` on the main actor whose change sets are taken from its
/// `changes()` stream, as a list view takes them: what every SQLiteStore live-query contender
/// measures.
@MainActor
final class ControllerChangeStream {
    private let store: Store
    private let controller: FetchedResultsController<Item>
    private var changes: FetchedResultsChanges.Iterator

    /// Opens a `Store`, performs the controller's fetch, waits for its complete results and
    /// subscribes to its later changes.
    init(databasePath: String, request: StoreRequest<Item>) throws {
        store = try StoreDatabase.open(atPath: databasePath)
        controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        try controller.catchUp()
        changes = controller.changes().makeAsyncIterator()
    }

    /// Runs `change` in one `write`, then waits for the controller's next change set.
    func commit(_ change: @escaping @Sendable (Database) throws -> Void) async throws -> ChangeSet {
        try await store.write { db in try change(db) }
        var iterator = changes
        let delivered = try await iterator.next(isolation: #isolation)
        changes = iterator
        guard let changeSet = delivered?.changeSet else { throw ChangesEndedError() }
        return changeSet
    }
}

/// The controller's change stream ended although the live query was still in use.
private struct ChangesEndedError: Error, CustomStringConvertible {
    var description: String { "the FetchedResultsController's changes() stream ended" }
}
