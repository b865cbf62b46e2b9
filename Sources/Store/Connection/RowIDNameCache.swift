import CSQLite

/// The rowid names that `Database.rowIDName(of:)` found, kept while the schema stays the same.
///
/// Each use reads `PRAGMA schema_version` with a statement of its own, stepped with the C API
/// alone (so that change capture may ask in the middle of a statement): the version changes
/// with every schema change, this connection's or another's, and goes back with a rollback or
/// `ROLLBACK TO`, so the names follow the schema that the connection sees.
final class RowIDNameCache {
    private var schemaVersion: Int64?
    private var names: [String: String] = [:]
    private var versionStatement: OpaquePointer?

    deinit { removeAll() }

    /// Forgets the names and finalizes the statement, before the connection closes.
    func removeAll() {
        names.removeAll()
        schemaVersion = nil
        sqlite3_finalize(versionStatement)
        versionStatement = nil
    }

    /// The cached name of `table`'s rowid, or the one `resolve` finds, cached.
    func name(of table: String, on connection: OpaquePointer, resolve: () throws -> String) throws -> String {
        let version = try schemaVersion(on: connection)
        if version != schemaVersion {
            names.removeAll()
            schemaVersion = version
        }
        let key = table.sqliteIdentifierFolded
        if let name = names[key] { return name }
        let name = try resolve()
        names[key] = name
        return name
    }

    /// The SQL that `schemaVersion(on:)` runs.
    static let schemaVersionSQL = "PRAGMA schema_version"

    /// The connection's `PRAGMA schema_version` now.
    func schemaVersion(on connection: OpaquePointer) throws -> Int64 {
        let sql = Self.schemaVersionSQL
        if versionStatement == nil {
            let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &versionStatement, nil)
            guard code == SQLITE_OK else { throw StoreError(resultCode: code, connection: connection, sql: sql) }
        }
        defer { sqlite3_reset(versionStatement) }
        let code = sqlite3_step(versionStatement)
        guard code == SQLITE_ROW else { throw StoreError(resultCode: code, connection: connection, sql: sql) }
        return sqlite3_column_int64(versionStatement, 0)
    }
}
