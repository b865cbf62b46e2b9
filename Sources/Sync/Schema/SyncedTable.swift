import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// What sync needs to know of one synced table, read from the schema and checked.
struct SyncedTable: Equatable {
    /// A single-column foreign key of the table.
    struct ForeignKey: Equatable {
        let column: String
        let parentTable: String
        let parentColumn: String
        /// Whether the schema's delete rule sets the column to NULL (otherwise the row follows its parent).
        let setsNull: Bool
    }

    /// The table name, its ASCII letters lowercased (`sqliteIdentifierFolded`).
    let name: String
    /// The primary key column.
    let key: String
    /// The other columns, in table order: the cells that sync.
    let columns: [String]
    /// The columns that are `NOT NULL` without a default: a row waits, absent, until it has
    /// their cells (an update that arrived before the row's insert).
    let requiredColumns: [String]
    let foreignKeys: [ForeignKey]
    /// The columns that hold a foreign key: their cells are indexed by value, to find the rows
    /// that wait for a parent (`store_sync_cells.link`).
    let linkColumns: Set<String>

    /// Whether `name` spells one of ``columns`` with the same bytes, as SQLite and the sync
    /// state tell names apart: String's `==` equates canonically equivalent names (`"é"` and
    /// `"e\u{301}"`), and a cell accepted under the other spelling would be stored beside the
    /// column's cells without ever reaching the column.
    func hasColumn(spelled name: String) -> Bool { columnIndex(spelled: name) != nil }

    /// The index in ``columns`` of the column `name` spells with the same bytes (see ``hasColumn(spelled:)``).
    func columnIndex(spelled name: String) -> Int? { columns.firstIndex { $0.hasSameUTF8(as: name) } }

    /// Whether `name` spells one of ``linkColumns`` with the same bytes (see ``hasColumn(spelled:)``).
    func hasLinkColumn(spelled name: String) -> Bool { linkColumns.containsSpelling(name) }

    /// Reads and checks `table`: a rowid table with one `TEXT` or `BLOB` key column.
    static func load(_ table: String, from db: Database) throws -> SyncedTable {
        let name = table.sqliteIdentifierFolded
        let info = try db.fetchRows(
            sql: "SELECT name, type, pk, hidden, \"notnull\", dflt_value FROM pragma_table_xinfo(?) ORDER BY cid",
            arguments: [name])
        guard !info.isEmpty else { throw StoreError.syncTableRefused(name, "it does not exist") }
        if let twin = try canonicallyEquivalentTwin(of: name, in: db) {
            throw StoreError.syncTableRefused(
                name, "table \"\(twin)\" has a canonically equivalent name in other bytes, which sync could not tell apart from it")
        }
        let isWithoutRowID = try db.fetchValue(
            Bool.self, sql: "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ? COLLATE NOCASE", arguments: [name])
        if isWithoutRowID == true { throw StoreError.syncTableRefused(name, "it is a WITHOUT ROWID table") }
        let keys = info.filter { $0["pk"] != .integer(0) }
        guard keys.count == 1, case .text(let key)? = keys[0]["name"] else {
            throw StoreError.syncTableRefused(
                name, keys.isEmpty ? "it has no primary key (rowids are not unique across devices)" : "its primary key has several columns")
        }
        let declared = (try? keys[0].decode(String.self, column: "type")) ?? ""
        guard hasTextOrBlobAffinity(declared) else {
            throw StoreError.syncTableRefused(
                name, "its primary key \"\(key)\" is \(declared); synced tables need a UUID or String key (TEXT or BLOB)")
        }
        if let collation = try nonBinaryCollation(ofKey: key, in: name, db: db) {
            throw StoreError.syncTableRefused(
                name,
                "its primary key \"\(key)\" compares with COLLATE \(collation); synced keys must compare by their bytes (BINARY), "
                    + "as the sync state and the server tell keys apart")
        }
        let columns = info.compactMap { row -> String? in
            guard row["hidden"] == .integer(0), case .text(let column)? = row["name"], column != key else { return nil }
            return column
        }
        let requiredColumns = info.compactMap { row -> String? in
            guard row["notnull"] == .integer(1), row["dflt_value"] == .null, case .text(let column)? = row["name"],
                columns.contains(column)
            else { return nil }
            return column
        }
        let foreignKeys = try foreignKeys(of: name, in: db)
        let linkColumns = Set(columns.filter { column in foreignKeys.contains { $0.column.matchesSQLiteIdentifier(column) } })
        return SyncedTable(
            name: name, key: key, columns: columns, requiredColumns: requiredColumns, foreignKeys: foreignKeys, linkColumns: linkColumns)
    }

    /// SQLite's affinity rules (<https://www.sqlite.org/datatype3.html>): TEXT or BLOB, not a number.
    private static func hasTextOrBlobAffinity(_ declared: String) -> Bool {
        let type = declared.uppercased()
        if type.contains("INT") { return false }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return true }
        return type.isEmpty || type.contains("BLOB")
    }

    /// Another table whose name is `name` to `String` (canonically equivalent, `"cafe\u{301}s"`
    /// for `"caf\u{E9}s"`) but not to SQLite (other bytes): table names reach sync as strings.
    private static func canonicallyEquivalentTwin(of name: String, in db: Database) throws -> String? {
        try db.fetchRows(sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            .compactMap { $0[0].stringValue }
            .first { $0.sqliteIdentifierFolded == name && !$0.sqliteIdentifierFolded.hasSameUTF8(as: name) }
    }

    /// The collation other than `BINARY` that the key compares with, if any: its column's
    /// declared collation (used by `WHERE key = ?`) or its primary key index's (which decides
    /// which keys are one row). Under `NOCASE`, "abc" on one device and "ABC" on another would
    /// be one row in each store but two in the sync state and on the server.
    private static func nonBinaryCollation(ofKey key: String, in table: String, db: Database) throws -> String? {
        let indexCollations = try db.fetchRows(
            sql: """
                SELECT x.coll FROM pragma_index_list(?) AS l, pragma_index_xinfo(l.name) AS x
                WHERE l.origin = 'pk' AND x.key = 1
                """,
            arguments: [table]
        ).compactMap { $0[0].stringValue }
        let collations = [db.declaredCollation(table: table, column: key) ?? "BINARY"] + indexCollations
        return collations.first { !isBinary($0) }
    }

    private static func isBinary(_ collation: String) -> Bool { collation.uppercased() == "BINARY" }

    private static func foreignKeys(of table: String, in db: Database) throws -> [ForeignKey] {
        let rows = try db.fetchRows(
            sql: "SELECT id, \"from\", \"table\", \"to\", on_delete FROM pragma_foreign_key_list(?)", arguments: [table])
        var counts: [DatabaseValue: Int] = [:]
        for row in rows { counts[row["id"] ?? .null, default: 0] += 1 }
        return try rows.map { row in
            guard counts[row["id"] ?? .null] == 1 else {
                throw StoreError.syncTableRefused(table, "it has a foreign key of several columns")
            }
            let column = try row.decode(String.self, column: "from")
            let parent = try row.decode(String.self, column: "table").sqliteIdentifierFolded
            let rule = try row.decode(String.self, column: "on_delete").uppercased()
            if rule == "SET DEFAULT" {
                throw StoreError.syncTableRefused(table, "its foreign key \"\(column)\" is ON DELETE SET DEFAULT")
            }
            let parentColumn = try row.decode(String?.self, column: "to") ?? parentKey(of: parent, in: db)
            if let collation = db.declaredCollation(table: parent, column: parentColumn), !isBinary(collation) {
                throw StoreError.syncTableRefused(
                    table,
                    "its foreign key \"\(column)\" refers to \"\(parent)\".\"\(parentColumn)\", which compares with COLLATE "
                        + "\(collation); a parent must be found by its bytes (BINARY), as the sync state finds the rows that wait for it")
            }
            return ForeignKey(column: column, parentTable: parent, parentColumn: parentColumn, setsNull: rule == "SET NULL")
        }
    }

    private static func parentKey(of table: String, in db: Database) throws -> String {
        try db.fetchValue(String.self, sql: "SELECT name FROM pragma_table_info(?) WHERE pk = 1", arguments: [table])
            ?? "rowid"
    }
}

extension [String: SyncedTable] {
    /// The synced table that `name` names, by its folded spelling's bytes (ASCII letters lowercased), as SQLite and
    /// the sync state tell names apart: the dictionary's own look-up, by `String`'s equality,
    /// would also take a canonically equivalent name (`"cafe\u{301}s"` for `"caf\u{E9}s"`).
    func table(named name: String) -> SyncedTable? {
        // The name as sent first: a device sends the folded name it records, so a page of
        // thousands of rows folds none of them.
        value(spelled: name) ?? value(spelled: name.sqliteIdentifierFolded)
    }
}
