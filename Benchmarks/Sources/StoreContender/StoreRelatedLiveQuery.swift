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
    /// The live query: every item ordered and sectioned by its list's name.
    public static let request = StoreRequest<Item>().order(Column("name", through: list).ascending)
        .sectioned(by: Column("name", through: list)).batchSize(100)
    private static let list = ToOneLink(name: "list", childTable: "item", foreignKey: "list_id", parentTable: "list")

    private let stream: ControllerChangeStream

    /// Opens a `Store`, subscribes to the controller's changes and performs its fetch.
    public init(databasePath: String) async throws {
        stream = try ControllerChangeStream(databasePath: databasePath, request: Self.request)
    }

    /// Renames the list in one `write`, then waits for the controller's next change set.
    public func commit(_ rename: ListRename) async throws -> ChangeSummary {
        let changeSet = try await stream.commit { db in
            try db.execute(sql: RelatedSQL.renameList, arguments: [rename.name, rename.listID])
        }
        return ChangeSummary(
            insertions: changeSet.inserts.count + changeSet.sectionInserts.count,
            removals: changeSet.deletes.count + changeSet.sectionDeletes.count,
            updates: changeSet.updates.count + changeSet.moves.count)
    }
}
