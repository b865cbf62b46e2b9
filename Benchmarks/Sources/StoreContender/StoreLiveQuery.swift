import BenchmarkKit
import SQLiteStoreCore
import SQLiteStoreResults

/// The observe workloads with SQLiteStore, as its users write them: a `FetchedResultsController`
/// over `flag = 1 ORDER BY score` on the main actor, its change sets consumed from `changes()`.
@MainActor
public final class StoreLiveQuery: LiveQueryContender {
    /// Results are labelled `SQLiteStore`.
    public nonisolated static let library = ContenderLibrary.sqliteStore

    private let stream: ControllerChangeStream

    /// Opens a `Store`, subscribes to the controller's changes and performs its fetch.
    public init(databasePath: String) async throws {
        stream = try ControllerChangeStream(databasePath: databasePath, request: ItemRequests.flaggedByScore)
    }

    /// Writes `change` in one `write`, then waits for the controller's next change set.
    public func commit(_ change: ItemChange) async throws -> ChangeSummary {
        let changeSet = try await stream.commit { db in try db.apply(change) }
        return ChangeSummary(
            insertions: changeSet.inserts.count, removals: changeSet.deletes.count,
            updates: changeSet.updates.count + changeSet.moves.count)
    }
}
