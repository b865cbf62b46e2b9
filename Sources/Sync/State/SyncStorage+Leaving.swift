import SQLiteStoreCore

/// The rows the sync layer is removing from the store (a revocation, an ended subscription):
/// `temp.store_sync_leaving`, a table of the writer connection alone, with each row's table,
/// key and, when known, the rowid it had. They are deleted from their tables and forgotten a
/// table at a time, not one by one, since there may be a hundred thousand of them. The writer
/// makes it when sync opens it.
extension SyncStorage {
    static let leavingSchema = """
        CREATE TEMP TABLE IF NOT EXISTS store_sync_leaving(tbl TEXT NOT NULL, pk NOT NULL, rid INTEGER, PRIMARY KEY (tbl, pk)) WITHOUT ROWID
        """

    /// The rowids of `table`'s rows listed as leaving.
    static func leavingRowIDs(of table: String, in db: Database) throws -> [Int64] {
        let statement = try db.cachedStatement(
            sql: "SELECT rid FROM temp.store_sync_leaving WHERE tbl = ? AND rid IS NOT NULL")
        try statement.bind([table])
        defer { statement.reset() }
        var rowIDs: [Int64] = []
        while try statement.step() {
            if case .integer(let rowID) = statement.value(at: 0) { rowIDs.append(rowID) }
        }
        return rowIDs
    }
}
