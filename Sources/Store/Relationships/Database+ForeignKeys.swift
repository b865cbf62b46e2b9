/// One single-column foreign key of a table, from `PRAGMA foreign_key_list`.
struct ForeignKey {
    /// The referring column.
    let from: String
    /// The referred table.
    let table: String
    /// The referred column; `nil` when the schema names none (the referred table's primary key).
    let to: String?
    /// The `ON DELETE` action, as SQLite spells it (`CASCADE`, `SET NULL`, `NO ACTION`, …).
    let onDelete: String

    /// Whether the key is the one `link` follows; `referredKey` is the referred table's primary
    /// key, which a key that names no column refers to.
    func matches(_ link: ToOneLink, referredKey: String?) -> Bool {
        from.matchesSQLiteIdentifier(link.foreignKey) && table.matchesSQLiteIdentifier(link.parentTable)
            && (to ?? referredKey)?.matchesSQLiteIdentifier(link.referencedKey) == true
    }
}

extension Database {
    /// The foreign key of `link.childTable` that `link` follows, or `nil` when the schema has none.
    /// Composite keys never match: a link is one column.
    func foreignKey(matching link: ToOneLink) throws -> ForeignKey? {
        let rows = try fetchRows(
            sql: """
                SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?)
                WHERE id IN (SELECT id FROM pragma_foreign_key_list(?) GROUP BY id HAVING count(*) = 1)
                """,
            arguments: [link.childTable, link.childTable])
        let keys = try rows.map { row in
            ForeignKey(
                from: try row.decode(column: "from"), table: try row.decode(column: "table"),
                to: try row.decode(String?.self, column: "to"), onDelete: try row.decode(column: "on_delete"))
        }
        let referredKey = try fetchValue(
            String.self,
            sql: "SELECT name FROM pragma_table_info(?) WHERE pk = 1 AND (SELECT count(*) FROM pragma_table_info(?) WHERE pk > 0) = 1",
            arguments: [link.parentTable, link.parentTable])
        return keys.first { $0.matches(link, referredKey: referredKey) }
    }
}
