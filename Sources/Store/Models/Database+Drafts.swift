extension Database {
    /// Inserts `draft` and returns the model as stored, with its key: the rowid SQLite
    /// assigned, the draft's own key, or a new UUID for a `UUID` key left `nil`.
    ///
    /// The row is read back in the same statement (`INSERT … RETURNING`), so the model is what
    /// the table holds. Every column is written, so a column's SQL `DEFAULT` applies only
    /// through the model's own default values, which the draft's initializer takes.
    ///
    /// - Throws: `StoreError`: `SQLITE_MISUSE` for a `String` key left `nil` or a model without
    ///   `storeColumns` (nothing is written), `SQLITE_CONSTRAINT` for a key or a constraint the row breaks.
    @discardableResult
    public func insert<D: StoreDraft>(_ draft: D) throws -> D.Model {
        typealias Model = D.Model
        guard let columns = Model.storeColumns else {
            throw StoreError.misuse("\(D.self) needs \(Model.self) to declare storeColumns, as @StoreModel does")
        }
        try requireRowIDTable(Model.tableName, of: Model.self)
        let key = draft.id ?? Model.ID.newKey()
        guard key != nil || Model.ID.isRowIDAlias else {
            throw StoreError.misuse("\(D.self) has no id: a \(Model.ID.Value.self) key is the app's to choose")
        }
        let statement = try cachedStatement(sql: Self.draftInsertSQL(for: Model.self, columns: columns.map(\.name)))
        statement.reset()
        defer { statement.reset() }
        try draft.encode(to: StoreBindings(statement: statement))
        if draft.id == nil, let key, let keyIndex = columns.firstIndex(where: { $0.name == Model.primaryKeyColumn }) {
            try statement.bind(key.databaseValue, at: keyIndex + 1)
        }
        guard try statement.step() else {
            throw StoreError.mismatch("INSERT … RETURNING returned no row", sql: statement.sql)
        }
        return try Model(row: StoreRow(statement: statement))
    }

    /// `INSERT` of every column of `Model`, each `?i` taking column `i - 1`, returning the row as stored.
    private static func draftInsertSQL<Model: StoreModel>(for model: Model.Type, columns: [String]) -> String {
        let insert = ModelStatements.indexedSQL(.insert, table: Model.tableName, primaryKey: Model.primaryKeyColumn, columns: columns)
        return "\(insert) RETURNING \(Model.selection)"
    }
}
