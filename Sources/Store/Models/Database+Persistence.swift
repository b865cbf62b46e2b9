extension Database {
    /// Inserts `model`; an `Int64?` key that is `nil` becomes the new row's rowid.
    ///
    /// A model whose key is set is inserted with that key (a conflict is a `SQLITE_CONSTRAINT` error).
    ///
    /// - Parameter model: The model to insert; its `id` is set to the new rowid when it was `nil`.
    /// - Throws: `StoreError`, such as `SQLITE_CONSTRAINT` for a key or a constraint the row breaks.
    public func insert<M: StoreModel>(_ model: inout M) throws {
        let statement = try writeStatement(.insert, for: model)
        try statement.execute()
        model.id = model.id.inserted(rowID: lastInsertedRowID)
    }

    /// Updates the row of `model` with all its values; throws `SQLITE_NOTFOUND` when no row has its id.
    public func update<M: StoreModel>(_ model: M) throws {
        let id = try requireID(of: model)
        let statement = try writeStatement(.update, for: model)
        if M.storeColumns == nil {
            // The Codable path's UPDATE takes the key after the row's values.
            try statement.bind(id.databaseValue, at: statement.parameterCount)
        }
        try statement.execute()
        try requireChange(of: M.self, id: id, sql: statement.sql)
    }

    /// Inserts `model`, or updates the row that has its id; sets an `Int64?` id after an insert.
    public func upsert<M: StoreModel>(_ model: inout M) throws {
        let statement = try writeStatement(.upsert, for: model)
        try statement.execute()
        if model.id.primaryKeyValue == nil { model.id = model.id.inserted(rowID: lastInsertedRowID) }
    }

    /// Saves `model`: inserts it when it has no id yet, otherwise upserts it.
    public func save<M: StoreModel>(_ model: inout M) throws {
        if model.id.primaryKeyValue == nil { try insert(&model) } else { try upsert(&model) }
    }

    /// Deletes the row of `model`; returns whether a row was deleted.
    @discardableResult
    public func delete<M: StoreModel>(_ model: M) throws -> Bool {
        try delete(M.self, id: try requireID(of: model))
    }

    /// Deletes the row of `M` whose primary key is `id`; returns whether a row was deleted.
    @discardableResult
    public func delete<M: StoreModel>(_ type: M.Type, id: M.ID.Value) throws -> Bool {
        try delete(M.self, where: M.primaryKeyColumn, is: id.databaseValue)
    }

    /// Deletes row `rowID` of `M`'s table; returns whether a row was deleted.
    @discardableResult
    public func delete<M: StoreModel>(_ type: M.Type, rowID: Int64) throws -> Bool {
        try delete(M.self, where: "rowid", is: .integer(rowID))
    }

    private func delete<M: StoreModel>(_ type: M.Type, where column: String, is value: DatabaseValue) throws -> Bool {
        try requireRowIDTable(M.tableName, of: M.self)
        let sql = "DELETE FROM \(SQLIdentifier.quote(M.tableName)) WHERE \(SQLIdentifier.quote(column)) = ?"
        try execute(sql: sql, arguments: [value])
        return changesCount > 0
    }

    /// Deletes every row of `M` that matches `predicate` (all rows when `nil`); returns how many.
    @discardableResult
    public func deleteAll<M: StoreModel>(_ type: M.Type, matching predicate: SQLExpression? = nil) throws -> Int {
        try requireRowIDTable(M.tableName, of: M.self)
        var sql = "DELETE FROM \(SQLIdentifier.quote(M.tableName))"
        if let predicate { sql += " WHERE \(predicate.sql)" }
        try execute(sql: sql, arguments: predicate?.arguments ?? [])
        return changesCount
    }

    /// The model's primary key; throws when it has none yet.
    func requireID<M: StoreModel>(of model: M) throws -> M.ID.Value {
        guard let id = model.id.primaryKeyValue else {
            throw StoreError.misuse("\(M.self) has no id: insert it before updating or deleting it")
        }
        return id
    }

    /// Throws `SQLITE_NOTFOUND` when the last statement changed no row.
    func requireChange<M: StoreModel>(of type: M.Type, id: M.ID.Value, sql: String) throws {
        guard changesCount > 0 else {
            throw StoreError(code: .notFound, message: "no \(M.tableName) row has id \(id)", sql: sql)
        }
    }

    /// Encodes `model` and binds its values to the statement for `operation`.
    private func writeStatement<M: StoreModel>(_ operation: ModelStatements.Operation, for model: M) throws -> Statement {
        try requireRowIDTable(M.tableName, of: M.self)
        return try modelStatements.statement(operation, binding: model, in: self)
    }
}
