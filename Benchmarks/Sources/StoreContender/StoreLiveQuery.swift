import BenchmarkKit
import SQLiteStoreCore
import SQLiteStoreResults

/// The observe workloads with SQLiteStore, as its users write them: a `FetchedResultsController`
/// over `flag = 1 ORDER BY score` on the main actor, its change sets consumed from `changes()`.
@MainActor
public final class StoreLiveQuery: LiveQueryContender {
    /// Results are labelled `SQLiteStore`.
    public nonisolated static let library = ContenderLibrary.sqliteStore

    private let store: Store
    private let controller: FetchedResultsController<Item>
    private var changes: FetchedResultsChanges.Iterator

    /// Opens a `Store`, subscribes to the controller's changes and performs its fetch.
    public init(databasePath: String) async throws {
        store = try Store(path: databasePath)
        controller = FetchedResultsController(store: store, request: ItemRequests.flaggedByScore)
        changes = controller.changes().makeAsyncIterator()
        try controller.performFetch()
    }

    /// Writes `change` in one `write`, then waits for the controller's next change set.
    public func commit(_ change: ItemChange) async throws -> ChangeSummary {
        try await store.write { db in try db.apply(change) }
        var iterator = changes
        let delivered = try await iterator.next(isolation: #isolation)
        changes = iterator
        guard let changeSet = delivered?.changeSet else { throw ChangesEndedError() }
        return ChangeSummary(
            insertions: changeSet.inserts.count, removals: changeSet.deletes.count,
            updates: changeSet.updates.count + changeSet.moves.count)
    }
}

/// The controller's change stream ended although the live query was still in use.
private struct ChangesEndedError: Error, CustomStringConvertible {
    var description: String { "the FetchedResultsController's changes() stream ended" }
}
