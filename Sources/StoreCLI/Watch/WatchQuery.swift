import SQLiteStoreCore

/// The query `store watch` runs, with every name checked against the database's schema
/// and spelled as the schema spells it.
struct WatchQuery: Sendable {
    /// One key of the sort order.
    struct SortKey: Sendable {
        /// A column of the watched table, or one read through a foreign key.
        let column: Column
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
    /// The column whose value groups rows into sections, if any (maybe read through a foreign key).
    let sectionColumn: Column?

    /// The fetched-results controller's request: `--where` as an SQL fragment (in parentheses,
    /// on lines of its own, so that `OR` and a trailing `--` comment stay inside it), the sort
    /// keys, and the section column. The batch size keeps the controller from reading rows:
    /// `watch` reads the shown values itself (see `WatchRow`).
    var fetchRequest: StoreRequest<WatchRow> {
        StoreRequest(
            tableName: table,
            predicate: condition.map { SQLExpression(sql: "(\($0)\n)") },
            orderings: sortKeys.map { $0.column.ordering(ascending: $0.isAscending) },
            sectionKey: sectionColumn,
            batchSize: 1)
    }

    /// The request with the condition alone, whose reads `WatchRequest` limits to the watched table.
    var conditionRequest: StoreRequest<WatchRow> {
        StoreRequest(tableName: table, predicate: fetchRequest.predicate)
    }

    /// `rowid, <columns>`: what `WatchResults` reads of each row, quoted; the rowid as `rowID`
    /// (`Database.rowIDName(of:)`: a column named `rowid` hides it under that name).
    func valueColumnsSQL(rowID: String) -> String {
        ([rowID] + columns.map(SQLIdentifier.quote)).joined(separator: ", ")
    }
}

extension Column {
    fileprivate func ordering(ascending: Bool) -> Ordering { ascending ? self.ascending : descending }
}
