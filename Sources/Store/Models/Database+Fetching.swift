extension Database {
    /// The model of type `M` with `id`, or `nil`.
    public func fetchOne<M: StoreModel>(_ type: M.Type, id: Int64) throws -> M? {
        let sql = "SELECT * FROM \(SQLIdentifier.quote(M.tableName)) WHERE \(SQLIdentifier.quote(M.primaryKeyColumn)) = ?"
        let statement = try cachedStatement(sql: sql)
        try statement.bind([id])
        defer { statement.reset() }
        return try statement.step() ? RowDecoder.decode(M.self, from: statement) : nil
    }

    /// Whether a row of `M` has `id`.
    public func exists<M: StoreModel>(_ type: M.Type, id: Int64) throws -> Bool {
        let sql = "SELECT 1 FROM \(SQLIdentifier.quote(M.tableName)) WHERE \(SQLIdentifier.quote(M.primaryKeyColumn)) = ?"
        return try fetchValue(Int.self, sql: sql, arguments: [id]) != nil
    }

    /// The models that `request` selects, in its order.
    public func fetch<M: StoreModel>(_ request: StoreRequest<M>) throws -> [M] {
        let (sql, arguments) = try request.selectSQL()
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }  // a row that fails to decode must not leave the statement open
        var models: [M] = []
        try RowDecoder(statement: statement).decodeRemainingRows(into: &models)
        return models
    }

    /// A cursor over the models that `request` selects, decoded one at a time; it has a
    /// statement of its own, so other queries may run while it is open.
    public func cursor<M: StoreModel>(_ request: StoreRequest<M>) throws -> ModelCursor<M> {
        let (sql, arguments) = try request.selectSQL()
        let statement = try prepare(sql: sql)
        try statement.bind(arguments)
        return ModelCursor(statement: statement)
    }

    /// How many rows `request` selects.
    public func fetchCount<M: StoreModel>(_ request: StoreRequest<M>) throws -> Int {
        let (sql, arguments) = try request.selectSQL(columns: "1")
        return try fetchValue(Int.self, sql: "SELECT count(*) FROM (\(sql))", arguments: arguments) ?? 0
    }
}

/// Iterates the models of a request one at a time: `while let item = try cursor.next() { … }`.
///
/// Valid only inside the closure that received its database.
public struct ModelCursor<M: StoreModel> {
    let statement: Statement
    private let decoder: RowDecoder
    private var finished = false

    init(statement: Statement) {
        self.statement = statement
        self.decoder = RowDecoder(statement: statement)
    }

    /// The next model, or `nil` at the end.
    public mutating func next() throws -> M? {
        guard !finished else { return nil }
        guard try statement.step() else {
            finished = true
            return nil
        }
        return try decoder.decodeRow(M.self)
    }
}
