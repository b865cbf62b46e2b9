import BenchmarkKit
import CSQLiteBench

/// `observeRelated` with the C API: after each commit, re-run the join on a reader connection
/// and compare each item's list name with the previous read through a hash map.
public final class RawCRelatedLiveQuery: RelatedLiveQueryContender {
    /// Results are labelled `rawC`.
    public static let library = ContenderLibrary.rawC

    private let writer: SQLiteConnection
    private let reader: SQLiteConnection
    private let renameStatement: PreparedStatement
    private let queryStatement: PreparedStatement
    private var names: [Int64: String] = [:]

    /// Opens a writer and a reader, prepares the statements and reads the initial results.
    public init(databasePath: String) throws {
        writer = try SQLiteConnection(path: databasePath)
        reader = try SQLiteConnection(path: databasePath)
        renameStatement = try writer.prepare(RelatedSQL.renameList)
        queryStatement = try reader.prepare(RelatedSQL.itemsByListName)
        names = try readNames()
    }

    /// Renames the list (one statement, its own transaction), re-runs the join and compares.
    public func commit(_ rename: ListRename) async throws -> ChangeSummary {
        sqlite3_bind_text(renameStatement.handle, 1, rename.name, -1, sqliteTransient)
        sqlite3_bind_int64(renameStatement.handle, 2, rename.listID)
        try renameStatement.run()
        let latest = try readNames()
        defer { names = latest }
        return RelatedSQL.summary(from: names, to: latest)
    }

    private func readNames() throws -> [Int64: String] {
        var names: [Int64: String] = [:]
        names.reserveCapacity(self.names.count)
        defer { sqlite3_reset(queryStatement.handle) }
        while true {
            let code = sqlite3_step(queryStatement.handle)
            guard code == SQLITE_ROW else {
                try queryStatement.check(code)
                return names
            }
            let name = sqlite3_column_text(queryStatement.handle, 1).map { String(cString: $0) } ?? ""
            names[sqlite3_column_int64(queryStatement.handle, 0)] = name
        }
    }
}
