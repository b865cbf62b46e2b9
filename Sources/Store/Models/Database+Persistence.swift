extension Database {
    /// Inserts `model` and sets its `id` to the new row's rowid.
    ///
    /// A model whose `id` is set is inserted with that id (a conflict is a `SQLITE_CONSTRAINT` error).
    public func insert<M: StoreModel>(_ model: inout M) throws {
        let statement = try writeStatement(.insert, for: model)
        try statement.execute()
        model.id = lastInsertedRowID
    }

    /// Updates the row of `model` with all its values; throws `SQLITE_NOTFOUND` when no row has its id.
    public func update<M: StoreModel>(_ model: M) throws {
        let id = try requireID(of: model)
        let statement = try writeStatement(.update, for: model)
        try statement.bind(.integer(id), at: statement.parameterCount)
        try statement.execute()
        guard changesCount > 0 else {
            throw StoreError(code: .notFound, message: "no \(M.tableName) row has id \(id)", sql: statement.sql)
        }
    }

    /// Inserts `model`, or updates the row that has its id; sets `id` after an insert.
    public func upsert<M: StoreModel>(_ model: inout M) throws {
        let statement = try writeStatement(.upsert, for: model)
        try statement.execute()
        if model.id == nil { model.id = lastInsertedRowID }
    }

    /// Saves `model`: inserts it when it has no id, otherwise upserts it.
    public func save<M: StoreModel>(_ model: inout M) throws {
        if model.id == nil { try insert(&model) } else { try upsert(&model) }
    }

    /// Deletes the row of `model`; returns whether a row was deleted.
    @discardableResult
    public func delete<M: StoreModel>(_ model: M) throws -> Bool {
        try delete(M.self, id: try requireID(of: model))
    }

    /// Deletes the row of `M` with `id`; returns whether a row was deleted.
    @discardableResult
    public func delete<M: StoreModel>(_ type: M.Type, id: Int64) throws -> Bool {
        let sql = "DELETE FROM \(SQLIdentifier.quote(M.tableName)) WHERE \(SQLIdentifier.quote(M.primaryKeyColumn)) = ?"
        try execute(sql: sql, arguments: [id])
        return changesCount > 0
    }

    /// Deletes every row of `M` that matches `predicate` (all rows when `nil`); returns how many.
    @discardableResult
    public func deleteAll<M: StoreModel>(_ type: M.Type, matching predicate: SQLExpression? = nil) throws -> Int {
        var sql = "DELETE FROM \(SQLIdentifier.quote(M.tableName))"
        if let predicate { sql += " WHERE \(predicate.sql)" }
        try execute(sql: sql, arguments: predicate?.arguments ?? [])
        return changesCount
    }

    private func requireID<M: StoreModel>(of model: M) throws -> Int64 {
        guard let id = model.id else {
            throw StoreError.misuse("\(M.self) has no id: insert it before updating or deleting it")
        }
        return id
    }

    /// Encodes `model` and binds its values to the statement for `operation`.
    private func writeStatement<M: StoreModel>(_ operation: ModelStatements.Operation, for model: M) throws -> Statement {
        try modelStatements.statement(operation, binding: model, in: self)
    }
}
