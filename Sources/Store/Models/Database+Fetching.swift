extension Database {
    /// The model of type `M` whose primary key is `id`, or `nil`.
    public func fetchOne<M: StoreModel>(_ type: M.Type, id: M.ID.Value) throws -> M? {
        try fetchOne(M.self, where: M.primaryKeyColumn, is: id.databaseValue)
    }

    /// The model of type `M` stored in row `rowID` of its table, or `nil`.
    public func fetchOne<M: StoreModel>(_ type: M.Type, rowID: Int64) throws -> M? {
        try fetchOne(M.self, where: "rowid", is: .integer(rowID))
    }

    private func fetchOne<M: StoreModel>(_ type: M.Type, where column: String, is value: DatabaseValue) throws -> M? {
        try requireRowIDTable(M.tableName, of: M.self)
        let sql = "SELECT \(M.selection) FROM \(SQLIdentifier.quote(M.tableName)) WHERE \(SQLIdentifier.quote(column)) = ?"
        let statement = try cachedStatement(sql: sql)
        try statement.bind([value])
        defer { statement.reset() }
        return try statement.step() ? ModelRows<M>(statement: statement).decodeRow() : nil
    }

    /// Whether a row of `M` has the primary key `id`.
    public func exists<M: StoreModel>(_ type: M.Type, id: M.ID.Value) throws -> Bool {
        try requireRowIDTable(M.tableName, of: M.self)
        let sql = "SELECT 1 FROM \(SQLIdentifier.quote(M.tableName)) WHERE \(SQLIdentifier.quote(M.primaryKeyColumn)) = ?"
        return try fetchValue(Int.self, sql: sql, arguments: [id]) != nil
    }

    /// The models that `request` selects, in its order.
    ///
    /// Inlinable, so that a model with `storeColumns` (a `@StoreModel` or a hand-written
    /// by-index conformance) is decoded by code specialized for it, column by column.
    ///
    /// - Parameter request: The filter, order and limits of the query.
    /// - Returns: The models, in the request's order.
    /// - Throws: `StoreError` when SQLite fails or a row does not decode into `M`.
    @inlinable
    public func fetch<M: StoreModel>(_ request: StoreRequest<M>) throws -> [M] {
        let statement = try preparedSelect(request)
        defer { statement.reset() }  // a row that fails to decode must not leave the statement open
        guard M.storeColumns != nil else { return try decodeCodableRows(M.self, from: statement) }
        let row = StoreRow(statement: statement)
        var models: [M] = []
        try statement.forEachRow { models.append(try M(row: row)) }
        return models
    }

    /// The statement of `request`'s `SELECT`, with its arguments bound.
    @usableFromInline
    func preparedSelect<M: StoreModel>(_ request: StoreRequest<M>) throws -> Statement {
        let (sql, arguments) = try selectSQL(request)
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        return statement
    }

    /// The remaining rows of `statement`, decoded through `Codable`.
    @usableFromInline
    func decodeCodableRows<M: StoreModel>(_ type: M.Type, from statement: Statement) throws -> [M] {
        var models: [M] = []
        try RowDecoder(statement: statement).decodeRemainingRows(into: &models)
        return models
    }

    /// The models that `request` selects, keyed by the rowid of their row (whatever their
    /// primary key): what a fetched-results controller caches.
    package func fetchByRowID<M: StoreModel>(_ request: StoreRequest<M>) throws -> [Int64: M] {
        let rowID = try rowIDName(of: request.tableName)
        let (sql, arguments) = try selectSQL(request, columns: M.selection + ", " + rowID, rowID: rowID)
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        var models: [Int64: M] = [:]
        let rows = ModelRows<M>(statement: statement)
        while try statement.step() {
            try rows.insertRow(into: &models)
        }
        return models
    }

    /// A cursor over the models that `request` selects, decoded one at a time; it has a
    /// statement of its own, so other queries may run while it is open.
    public func cursor<M: StoreModel>(_ request: StoreRequest<M>) throws -> ModelCursor<M> {
        let (sql, arguments) = try selectSQL(request)
        let statement = try prepare(sql: sql)
        try statement.bind(arguments)
        return ModelCursor(statement: statement)
    }

    /// How many rows `request` selects.
    public func fetchCount<M: StoreModel>(_ request: StoreRequest<M>) throws -> Int {
        let (sql, arguments) = try selectSQL(request, columns: "1")
        return try fetchValue(Int.self, sql: "SELECT count(*) FROM (\(sql))", arguments: arguments) ?? 0
    }
}

/// Decodes the rows of one statement into models: by column index for a model with
/// `storeColumns`, else through `Codable` with one decoder for every row.
package struct ModelRows<M: StoreModel> {
    package let statement: Statement
    private let decoder: RowDecoder?

    /// A reader of `statement`'s rows, whose first columns are `M.selection`'s.
    package init(statement: Statement) {
        self.statement = statement
        self.decoder = M.storeColumns == nil ? RowDecoder(statement: statement) : nil
    }

    /// The model in the statement's current row.
    package func decodeRow() throws -> M {
        if let decoder { return try decoder.decodeRow(M.self) }
        return try M(row: StoreRow(statement: statement))
    }

    /// Decodes the current row, whose last column is the rowid, into `models` under that rowid.
    func insertRow(into models: inout [Int64: M]) throws {
        guard let rowID = statement.integer(at: statement.columnCount - 1) else {
            throw StoreError.mismatch("the row has no rowid", sql: statement.sql)
        }
        models[rowID] = try decodeRow()
    }
}

/// Iterates the models of a request one at a time: `while let item = try cursor.next() { … }`.
///
/// Valid only inside the closure that received its database.
public struct ModelCursor<M: StoreModel> {
    let statement: Statement
    private let rows: ModelRows<M>
    private var finished = false

    init(statement: Statement) {
        self.statement = statement
        self.rows = ModelRows(statement: statement)
    }

    /// The next model, or `nil` at the end.
    public mutating func next() throws -> M? {
        guard !finished else { return nil }
        guard try statement.step() else {
            finished = true
            return nil
        }
        return try rows.decodeRow()
    }
}
