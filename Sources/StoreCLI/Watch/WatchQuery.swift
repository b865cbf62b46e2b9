import Store

/// The query `store watch` runs, with every name checked against the database's schema
/// and spelled as the schema spells it.
struct WatchQuery: Sendable {
    /// One key of the sort order.
    struct SortKey: Sendable {
        let column: String
        let isAscending: Bool
    }

    /// The watched table.
    let table: String
    /// The columns shown for each row, in order.
    let columns: [String]
    /// The SQL condition of `--where`, if any.
    let condition: String?
    /// The sort order; it starts with the section column when there is one.
    let sortKeys: [SortKey]
    /// The column whose value groups rows into sections, if any.
    let sectionColumn: String?

    /// `SELECT rowid, <section>, <columns> FROM <table> WHERE … ORDER BY …, rowid`:
    /// rowid first, then the section value (when sectioned), then the shown columns.
    var selectSQL: String {
        let selected = ["rowid"] + (sectionColumn.map { [$0] } ?? []) + columns
        var sql = "SELECT " + selected.map(SQLIdentifier.quote).joined(separator: ", ")
            + " FROM " + SQLIdentifier.quote(table)
        if let condition { sql += " WHERE (\(condition)\n)" }
        let order = sortKeys.map { SQLIdentifier.quote($0.column) + ($0.isAscending ? " ASC" : " DESC") } + ["rowid ASC"]
        return sql + " ORDER BY " + order.joined(separator: ", ")
    }

    /// Where the shown columns start in a row of `selectSQL`.
    var firstShownColumn: Int { sectionColumn == nil ? 1 : 2 }
}
