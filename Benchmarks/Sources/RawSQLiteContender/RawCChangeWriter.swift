import BenchmarkKit
import CSQLiteBench

/// Commits the observe workloads' changes with the C API: one transaction per change, through
/// statements prepared once. Alone, it measures SQLite's share of an observe workload.
public final class RawCChangeWriter {
    private let writer: SQLiteConnection
    private let insertStatement: PreparedStatement
    private let updateStatement: PreparedStatement
    private let deleteStatement: PreparedStatement

    /// Opens a writer on the database at `databasePath` and prepares the statements.
    public init(databasePath: String) throws {
        writer = try SQLiteConnection(path: databasePath)
        insertStatement = try writer.prepare(ItemSQL.insert)
        updateStatement = try writer.prepare(ItemSQL.updateScoreAndFlag)
        deleteStatement = try writer.prepare(ItemSQL.deleteByID)
    }

    /// Writes `change` in one transaction, rolled back if a statement fails.
    public func write(_ change: ItemChange) throws {
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
}
