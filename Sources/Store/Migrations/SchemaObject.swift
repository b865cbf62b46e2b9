/// A table, index, view or trigger of a database, with the SQL that creates it.
public struct SchemaObject: Sendable, Hashable {
    /// `table`, `index`, `view` or `trigger`.
    public let type: String
    /// The object's name.
    public let name: String
    /// The table (or view) an index or trigger belongs to; the name itself for tables and views.
    public let tableName: String
    /// The `CREATE …` statement, as SQLite stores it, without a final semicolon.
    public let sql: String
}

extension Database {
    /// The database's schema in an order that can be replayed into an empty database:
    /// tables and indexes by name, then views in creation order, then triggers by name.
    ///
    /// SQLite's internal tables, the shadow tables of virtual tables, and the migration ledger
    /// (`store_migrations`) are left out.
    public func schema() throws -> [SchemaObject] {
        try fetchRows(
            sql: """
                SELECT type, name, tbl_name, sql FROM sqlite_schema
                WHERE sql IS NOT NULL
                  AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                  AND tbl_name <> ?
                  AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow')
                ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END,
                         CASE type WHEN 'view' THEN rowid ELSE 0 END,
                         name
                """, arguments: [Ledger.tableName]
        )
        .map { row in
            SchemaObject(
                type: try row.decode(column: "type"), name: try row.decode(column: "name"),
                tableName: try row.decode(column: "tbl_name"), sql: try row.decode(column: "sql"))
        }
    }
}
