extension Database {
    /// How many rowids one `rowid IN (…)` statement binds; well under SQLite's parameter limit.
    static let rowIDsPerStatement = 500

    /// The models stored in `table` whose rowids are among `rowIDs`, keyed by rowid; rows
    /// that do not exist are absent. Reads `SELECT … WHERE rowid IN (…)`, a few hundred
    /// rowids per statement, so the cost follows the number of rowids, not the table size.
    package func fetchModels<M: StoreModel>(
        _ type: M.Type, table: String = M.tableName,
        rowIDs: some Collection<Int64>
    ) throws -> [Int64: M] {
        var models: [Int64: M] = [:]
        models.reserveCapacity(rowIDs.count)
        // One reader per statement, so columns are resolved once, not once per row.
        var rows: ModelRows<M>?
        let rowID = try rowIDName(of: table)
        try forEachRow(in: table, columns: M.selection + ", " + rowID, rowIDs: rowIDs, rowID: rowID) { statement in
            if rows?.statement !== statement { rows = ModelRows(statement: statement) }
            try rows?.insertRow(into: &models)
        }
        return models
    }

    /// The rowids among `rowIDs` that exist in `table`.
    package func existingRowIDs(in table: String, among rowIDs: some Collection<Int64>) throws -> Set<Int64> {
        var existing: Set<Int64> = []
        let rowID = try rowIDName(of: table)
        try forEachRow(in: table, columns: rowID, rowIDs: rowIDs, rowID: rowID) { statement in
            if case .integer(let rowID) = statement.value(at: 0) { existing.insert(rowID) }
        }
        return existing
    }

    /// Runs `SELECT <columns> FROM <table> WHERE rowid IN (…) [AND (<condition>)]` over
    /// `rowIDs` in chunks and calls `body` with the statement positioned on each row.
    ///
    /// `condition` is an extra SQL condition with its arguments (such as a request's predicate);
    /// `columnArguments` are bound to the placeholders of `columns` (a related count's).
    /// The rowid is matched under the name `rowIDName(of:)` gives (or `rowID`, when the caller
    /// has it already, sparing a schema query), which `columns` should use too.
    package func forEachRow(
        in table: String, columns: String, columnArguments: [DatabaseValue] = [], rowIDs: some Collection<Int64>,
        rowID: String? = nil, where condition: SQLExpression? = nil, _ body: (Statement) throws -> Void
    ) throws {
        let ids = Array(rowIDs)
        let rowID = try rowID ?? rowIDName(of: table)
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(start + Self.rowIDsPerStatement, ids.count)]
            start += chunk.count
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            var sql = "SELECT \(columns) FROM \(SQLIdentifier.quote(table)) WHERE \(rowID) IN (\(placeholders))"
            var arguments: [any DatabaseValueConvertible] = columnArguments as [any DatabaseValueConvertible]
            arguments += Array(chunk) as [any DatabaseValueConvertible]
            if let condition {
                sql += " AND (\(condition.sql))"
                arguments += condition.arguments as [any DatabaseValueConvertible]
            }
            let statement = try cachedStatement(sql: sql)
            try statement.bind(arguments)
            defer { statement.reset() }
            while try statement.step() { try body(statement) }
        }
    }
}
