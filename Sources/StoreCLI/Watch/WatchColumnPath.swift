import SQLiteStoreCore

/// A column `store watch` sorts or sections by: a column of the watched table (`title`), or
/// a column of the row one of its foreign keys refers to (`list.name`), resolved through the
/// schema's foreign keys (`PRAGMA foreign_key_list`).
///
/// The prefix before the dot names the table referred to by exactly one single-column foreign
/// key of the watched table, or the foreign-key column itself (`list_id.name`); the column
/// after it must exist in that table. A column of the watched table whose own name holds a
/// dot wins over a path.
enum WatchColumnPath {
    /// One single-column foreign key of the watched table.
    private struct ForeignKey {
        let column: String
        let parentTable: String
        let parentColumn: String?
    }

    /// The column `path` names, spelled as the schema spells it: `table`'s own column from
    /// `tableColumns`, or a column read through a foreign key. Unknown or ambiguous names are
    /// usage errors naming `option` and listing the candidates.
    static func column(_ path: String, of table: String, tableColumns: [String], option: String, in db: Database) throws -> Column {
        if let own = ownColumn(path, tableColumns: tableColumns) { return Column(own) }
        guard let dot = path.firstIndex(of: "."), dot != path.startIndex else {
            throw usage("\(option): table \(table) has no column '\(path)'")
        }
        let prefix = String(path[..<dot])
        let name = String(path[path.index(after: dot)...])
        let link = try self.link(prefix, in: path, of: table, option: option, db)
        let parentColumns = try columns(of: link.parentTable, in: db)
        guard let match = parentColumns.first(where: { $0.matchesSQLiteIdentifier(name) }) else {
            throw usage("\(option) '\(path)': table \(link.parentTable) has no column '\(name)'")
        }
        return Column(match, through: link)
    }

    /// The watched table's column `name`, spelled as `tableColumns` spell it, or its rowid.
    static func ownColumn(_ name: String, tableColumns: [String]) -> String? {
        if let match = tableColumns.first(where: { $0.matchesSQLiteIdentifier(name) }) { return match }
        return name.matchesSQLiteIdentifier("rowid") ? "rowid" : nil
    }

    /// The foreign key `prefix` names: the one whose column it is, else the only one to the table it is.
    private static func link(_ prefix: String, in path: String, of table: String, option: String, _ db: Database) throws -> ToOneLink {
        let keys = try foreignKeys(of: table, in: db)
        let byColumn = keys.filter { $0.column.matchesSQLiteIdentifier(prefix) }
        let byTable = keys.filter { $0.parentTable.matchesSQLiteIdentifier(prefix) }
        let candidates = Set(keys.map(\.column)).union(tablesReferredOnce(keys)).sorted().joined(separator: ", ")
        let chosen = byColumn.first ?? (byTable.count == 1 ? byTable.first : nil)
        guard let key = chosen else {
            let reason =
                byTable.count > 1
                ? "'\(prefix)' is ambiguous: \(byTable.count) foreign keys of \(table) refer to \(byTable[0].parentTable); name the column"
                : "'\(prefix)' names no foreign key of \(table)"
            throw usage("\(option) '\(path)': \(reason) (\(keys.isEmpty ? "it has none" : "use one of: \(candidates)"))")
        }
        return ToOneLink(
            name: byColumn.isEmpty ? key.parentTable : key.column, childTable: table, foreignKey: key.column,
            parentTable: key.parentTable, referencedKey: try key.parentColumn ?? primaryKey(of: key.parentTable, in: db))
    }

    /// The tables exactly one foreign key refers to: the prefixes that name a table unambiguously.
    private static func tablesReferredOnce(_ keys: [ForeignKey]) -> Set<String> {
        Set(
            Dictionary(grouping: keys, by: { $0.parentTable.sqliteIdentifierFolded }).values.filter { $0.count == 1 }.map {
                $0[0].parentTable
            })
    }

    /// `table`'s foreign keys of one column each, in the schema's spelling.
    private static func foreignKeys(of table: String, in db: Database) throws -> [ForeignKey] {
        let rows = try db.fetchRows(
            sql: """
                SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)
                WHERE id IN (SELECT id FROM pragma_foreign_key_list(?) GROUP BY id HAVING count(*) = 1) ORDER BY id
                """,
            arguments: [table, table])
        return try rows.compactMap { row in
            guard let column = row[0].textValue, let parent = row[1].textValue else { return nil }
            return ForeignKey(column: column, parentTable: try schemaName(of: parent, in: db), parentColumn: row[2].textValue)
        }
    }

    /// The table's columns, in order.
    private static func columns(of table: String, in db: Database) throws -> [String] {
        try db.fetchRows(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table]).compactMap { $0[0].textValue }
    }

    /// The table's name as the schema spells it (a foreign key may spell it otherwise).
    private static func schemaName(of table: String, in db: Database) throws -> String {
        try db.fetchRows(sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND name = ? COLLATE NOCASE", arguments: [table])
            .first?[0].textValue ?? table
    }

    /// The column a foreign key that names none refers to: the table's primary key, else its rowid.
    private static func primaryKey(of table: String, in db: Database) throws -> String {
        try db.fetchRows(sql: "SELECT name FROM pragma_table_info(?) WHERE pk = 1", arguments: [table]).first?[0].textValue ?? "rowid"
    }

    private static func usage(_ message: String) -> CommandFailure {
        CommandFailure(status: .usage, kind: "usage", message: message)
    }
}
