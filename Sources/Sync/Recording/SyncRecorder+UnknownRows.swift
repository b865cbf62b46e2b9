import SQLiteStoreCore

/// What the sync tables know of a chunk of a synced table's rows, read in one statement: the
/// rowids that hold a row, and the keys of the rows that nothing here knew (no row recorded
/// at their rowid, their key recorded at no rowid), which the recorder records as a set.
struct KnownRows {
    private(set) var presentRowIDs: Set<Int64> = []
    private(set) var unknownKeys: [Int64: DatabaseValue] = [:]

    init(_ table: SyncedTable, rowIDs: [Int64], in db: Database) throws {
        let key = "t.\(SQLIdentifier.quote(table.key))"
        let rows = try db.fetchRows(
            sql: """
                SELECT t.rowid, \(key), at_rowid.pk IS NULL AND of_key.rid IS NULL FROM json_each(?) AS ids
                JOIN \(SQLIdentifier.quote(table.name)) AS t ON t.rowid = ids.value
                LEFT JOIN store_sync_rows AS at_rowid ON at_rowid.tbl = ? AND at_rowid.rid = t.rowid
                LEFT JOIN store_sync_rows AS of_key ON of_key.tbl = ? AND of_key.pk = \(key) AND of_key.rid IS NOT NULL
                """,
            arguments: [try BoundKeys(rowIDs.map { .integer($0) }).argument, table.name, table.name])
        for row in rows {
            guard case .integer(let rowID) = row[0] else { continue }
            presentRowIDs.insert(rowID)
            if row[2] == .integer(1) { unknownKeys[rowID] = row[1] }
        }
    }
}

/// Every cell of some rows of a synced table, as one `SELECT` of the rows by rowid (a JSON
/// array read by `json_each`) crossed with the table's columns, their names and link flags
/// bound: row after row, or by key (``Order``).
struct UnknownRowCells {
    /// The row's key, as the selection reads it.
    let key: String
    /// The cell's value, as the selection reads it.
    let value: String
    private let table: String
    private let columns: String
    private let columnArguments: [DatabaseValue]

    init(_ table: SyncedTable) {
        key = "t.\(SQLIdentifier.quote(table.key))"
        let cases = table.columns.indices.map { "WHEN \($0) THEN t.\(SQLIdentifier.quote(table.columns[$0]))" }
        value = "CASE c.ordinal \(cases.joined(separator: " ")) END"
        self.table = SQLIdentifier.quote(table.name)
        columns = table.columns.indices.map { "SELECT ? AS name, \($0) AS ordinal, ? AS link" }.joined(separator: " UNION ALL ")
        columnArguments = table.columns.flatMap { [.text($0), .integer(table.linkColumns.contains($0) ? 1 : 0)] }
    }

    /// The order in which ``select(_:in:)`` gives the cells.
    enum Order {
        /// Row after row as the rowids were given, each row's cells in the order of the table's
        /// columns: the outbox's order.
        case rowMajor
        /// By key, then column name, by bytes: the order of `store_sync_cells`' primary key, so
        /// that an insert walks its pages once, from first to last, instead of landing all over them.
        case byKey
    }

    /// `SELECT <selection> FROM` the rows and the columns, in `order`; `selection` reads `t` (the
    /// row) and `c` (the column: `name`, `ordinal`, `link`).
    func select(_ selection: String, in order: Order) -> String {
        let orderBy =
            switch order {
            case .rowMajor: "ids.key, c.ordinal"
            case .byKey: "\(key) COLLATE BINARY, c.name COLLATE BINARY"
            }
        return """
            SELECT \(selection) FROM json_each(?) AS ids JOIN \(table) AS t ON t.rowid = ids.value
            CROSS JOIN (\(columns)) AS c ORDER BY \(orderBy)
            """
    }

    /// The arguments of `select`: the selection's, then the rowids, then the columns'.
    func arguments(selecting selection: [DatabaseValue], rowIDs: DatabaseValue) -> [DatabaseValue] {
        selection + [rowIDs] + columnArguments
    }
}
