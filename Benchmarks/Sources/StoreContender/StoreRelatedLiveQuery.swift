import BenchmarkKit
import SQLiteStoreCore
import SQLiteStoreResults

/// `observeRelated` with SQLiteStore: a `FetchedResultsController` over every item, ordered and
/// sectioned by its list's name (a column read through a to-one link), batch size 100, on the
/// main actor; its change sets consumed from `changes()`.
@MainActor
public final class StoreRelatedLiveQuery: RelatedLiveQueryContender {
    /// Results are labelled `SQLiteStore`.
    public nonisolated static let library = ContenderLibrary.sqliteStore

    /// The item's list: `item.list_id → list.id`.
    private static let list = ToOneLink(name: "list", childTable: "item", foreignKey: "list_id", parentTable: "list")
    private static let request = StoreRequest<Item>().order(Column("name", through: list).ascending)
        .sectioned(by: Column("name", through: list)).batchSize(100)

    private let store: Store
    private let controller: FetchedResultsController<Item>
    private var changes: FetchedResultsChanges.Iterator

    /// Opens a `Store`, subscribes to the controller's changes and performs its fetch.
    public init(databasePath: String) async throws {
        store = try Store(path: databasePath)
        controller = FetchedResultsController(store: store, request: Self.request)
        changes = controller.changes().makeAsyncIterator()
        try controller.performFetch()
    }

    /// Renames the list in one `write`, then waits for the controller's next change set.
    public func commit(_ rename: ListRename) async throws -> ChangeSummary {
        try await store.write { db in try db.execute(sql: RelatedSQL.renameList, arguments: [rename.name, rename.listID]) }
        var iterator = changes
        let delivered = try await iterator.next(isolation: #isolation)
        changes = iterator
        guard let changeSet = delivered?.changeSet else { throw RelatedChangesEndedError() }
        return ChangeSummary(
            insertions: changeSet.inserts.count + changeSet.sectionInserts.count,
            removals: changeSet.deletes.count + changeSet.sectionDeletes.count,
            updates: changeSet.updates.count + changeSet.moves.count)
    }
}

/// The controller's change stream ended although the live query was still in use.
private struct RelatedChangesEndedError: Error, CustomStringConvertible {
    var description: String { "the FetchedResultsController's changes() stream ended" }
}
