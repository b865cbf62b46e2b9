import BenchmarkKit
import CSQLiteBench

/// The observe workloads with the C API: after each commit, re-run the query on a reader
/// connection and diff the results against the previous ones by id with a hash map.
public final class RawCLiveQuery: LiveQueryContender {
    /// Results are labelled `rawC`.
    public static let library = ContenderLibrary.rawC

    private let writer: SQLiteConnection
    private let reader: SQLiteConnection
    private let insertStatement: PreparedStatement
    private let updateStatement: PreparedStatement
    private let deleteStatement: PreparedStatement
    private let queryStatement: PreparedStatement
    private var itemsByID: [Int64: Item] = [:]

    /// Opens a writer and a reader, prepares the statements and fetches the initial results.
    public init(databasePath: String) throws {
        writer = try SQLiteConnection(path: databasePath)
        reader = try SQLiteConnection(path: databasePath)
        insertStatement = try writer.prepare(ItemSQL.insert)
        updateStatement = try writer.prepare(ItemSQL.updateScoreAndFlag)
        deleteStatement = try writer.prepare(ItemSQL.deleteByID)
        queryStatement = try reader.prepare(ItemSQL.flaggedByScore)
        itemsByID = try indexByID(queryStatement.readAllItems())
    }

    /// Writes `change` in one transaction, re-runs the query and diffs by id.
    public func commit(_ change: ItemChange) async throws -> ChangeSummary {
        try write(change)
        return try diffAgainstLatestResults()
    }

    private func write(_ change: ItemChange) throws {
        try writer.execute("BEGIN")
        do {
            try apply(change)
            try writer.execute("COMMIT")
        } catch {
            try? writer.execute("ROLLBACK")
            throw error
        }
    }

    private func apply(_ change: ItemChange) throws {
        switch change {
        case .update(let updates):
            for update in updates {
                sqlite3_bind_double(updateStatement.handle, 1, update.score)
                sqlite3_bind_int64(updateStatement.handle, 2, update.flag ? 1 : 0)
                sqlite3_bind_int64(updateStatement.handle, 3, update.id)
                try updateStatement.run()
            }
        case .insert(let item):
            insertStatement.bindInsertArguments(of: item)
            try insertStatement.run()
        case .delete(let id):
            sqlite3_bind_int64(deleteStatement.handle, 1, id)
            try deleteStatement.run()
        }
    }

    /// Rows absent before are insertions, rows whose values differ are updates (a new score is
    /// a move), and the rest of the old rows that are missing now are removals.
    private func diffAgainstLatestResults() throws -> ChangeSummary {
        let latest = try queryStatement.readAllItems()
        var summary = ChangeSummary(insertions: 0, removals: 0, updates: 0)
        for item in latest {
            guard let id = item.id, let previous = itemsByID[id] else {
                summary.insertions += 1
                continue
            }
            if previous != item {
                summary.updates += 1
            }
        }
        summary.removals = itemsByID.count - (latest.count - summary.insertions)
        itemsByID = indexByID(latest)
        return summary
    }

    private func indexByID(_ items: [Item]) -> [Int64: Item] {
        var index: [Int64: Item] = [:]
        index.reserveCapacity(items.count)
        for item in items {
            if let id = item.id {
                index[id] = item
            }
        }
        return index
    }
}
