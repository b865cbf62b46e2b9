extension Database {
    /// The name that reads the rowid of `table` in SQL: `rowid`, `_rowid_` or `oid`, the first
    /// that the table has no column of (a column named `rowid` hides the rowid under that
    /// name), else its `INTEGER PRIMARY KEY` column, quoted.
    ///
    /// Throws `SQLITE_ERROR` when the table has no rowid that any name can reach.
    /// Cached until the schema changes (see `RowIDNameCache`).
    package func rowIDName(of table: String) throws -> String {
        try rowIDNames.name(of: table, on: handle) { try findRowIDName(of: table) }
    }

    /// The query that finds the columns a table's rowid may be hidden by.
    static let rowIDNameSQL = "SELECT name, type, pk FROM pragma_table_xinfo(?)"

    private func findRowIDName(of table: String) throws -> String {
        let columns = try uncapturedRows(sql: Self.rowIDNameSQL, arguments: [.text(table)])
        let names = Set(columns.compactMap { $0[0]?.sqliteIdentifierFolded })
        if let free = ["rowid", "_rowid_", "oid"].first(where: { !names.contains($0) }) { return free }
        let keys = columns.filter { $0[2] != "0" }
        if keys.count == 1, let key = keys.first, key[1]?.uppercased() == "INTEGER", let name = key[0] {
            return SQLIdentifier.quote(name)
        }
        throw StoreError(code: .error, message: "table \(table) hides its rowid behind columns named rowid, _rowid_ and oid")
    }
}
