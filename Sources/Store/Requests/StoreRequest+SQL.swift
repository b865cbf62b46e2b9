extension StoreRequest {
    /// `SELECT <columns> FROM <table> WHERE … ORDER BY … LIMIT … OFFSET …` for this request,
    /// with its arguments, ties ordered by rowid: the query a fetched-results controller runs
    /// to read the sort keys of the whole result. `rowID` is how the table's rowid is read
    /// (`Database.rowIDName(of:)`: a column named `rowid` hides it under that name).
    ///
    /// `arguments` are those of the placeholders in `columns` (a related count's).
    ///
    /// Throws `SQLITE_RANGE` for a negative limit or offset.
    package func sql(
        selecting columns: String, arguments: [DatabaseValue] = [], rowID: String = "rowid"
    ) throws -> (sql: String, arguments: [DatabaseValue]) {
        try selectSQL(columns: columns, columnArguments: arguments, rowID: rowID)
    }
}
