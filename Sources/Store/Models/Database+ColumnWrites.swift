extension Database {
    /// Updates only `columns` of `model`'s row, leaving the others as stored; throws
    /// `SQLITE_NOTFOUND` when no row has its id: `db.update(item, columns: \.title, \.done)`.
    ///
    /// Requires a model that binds by column index (`@StoreModel` or a hand-written `storeColumns`).
    public func update<M: TypedStoreModel>(_ model: M, columns: PartialKeyPath<M.Columns>...) throws {
        try update(model, columnNames: Self.columnNames(of: M.self, columns))
    }

    /// The SQL names of typed columns given by key paths into `M.Columns`.
    private static func columnNames<M: TypedStoreModel>(of type: M.Type, _ keyPaths: [PartialKeyPath<M.Columns>]) -> [String] {
        keyPaths.compactMap { M.columns[keyPath: $0] as? any TypedColumnName }.map(\.columnName)
    }

    /// Updates only the columns named `columnNames` of `model`'s row.
    public func update<M: StoreModel>(_ model: M, columnNames: [String]) throws {
        let storeColumns = try requireStoreColumns(M.self, for: "update(_:columns:)")
        let id = try requireID(of: model)
        let all = storeColumns.map(\.name)
        guard let keyIndex = all.firstIndex(of: M.primaryKeyColumn) else {
            throw StoreError.misuse("\(M.self)'s storeColumns lack its primary key \(M.primaryKeyColumn)")
        }
        let chosen = columnNames.filter { $0 != M.primaryKeyColumn }
        if let unknown = chosen.first(where: { !all.contains($0) }) {
            throw StoreError.misuse("\(M.self) has no column \(unknown)")
        }
        guard !chosen.isEmpty else { return }
        try requireRowIDTable(M.tableName, of: M.self)
        // Parameters in the order of the SET list, then the key.
        var parameters = [Int32](repeating: 0, count: all.count)
        let assignments = chosen.enumerated().map { offset, name in
            parameters[all.firstIndex(of: name) ?? 0] = Int32(offset + 1)
            return "\(SQLIdentifier.quote(name)) = ?"
        }
        parameters[keyIndex] = Int32(chosen.count + 1)
        let sql =
            "UPDATE \(SQLIdentifier.quote(M.tableName)) SET \(assignments.joined(separator: ", ")) WHERE \(SQLIdentifier.quote(M.primaryKeyColumn)) = ?"
        let statement = try cachedStatement(sql: sql)
        statement.reset()
        try model.encode(to: StoreBindings(statement: statement, parameters: parameters))
        try statement.execute()
        try requireChange(of: M.self, id: id, sql: sql)
    }

    /// Sets `assignments` on every row of `M` that matches `predicate` (all rows when `nil`),
    /// in one statement; returns how many rows changed:
    /// `db.updateAll(Item.self, set: [Item.columns.done.set(true)], where: Item.columns.title.hasPrefix("Buy"))`.
    @discardableResult
    public func updateAll<M: StoreModel>(
        _ type: M.Type, set assignments: [ColumnAssignment<M>],
        where predicate: ModelPredicate<M>? = nil
    ) throws -> Int {
        guard !assignments.isEmpty else { return 0 }
        try requireRowIDTable(M.tableName, of: M.self)
        var sql =
            "UPDATE \(SQLIdentifier.quote(M.tableName)) SET "
            + assignments.map { "\($0.column.quoted) = ?" }.joined(separator: ", ")
        var arguments = assignments.map(\.value)
        if let predicate {
            sql += " WHERE \(predicate.expression.sql)"
            arguments += predicate.expression.arguments
        }
        try execute(sql: sql, arguments: arguments)
        return changesCount
    }

    /// Deletes every row of `M` that matches `predicate`, built from its typed columns; returns how many.
    @discardableResult
    public func deleteAll<M: StoreModel>(_ type: M.Type, where predicate: ModelPredicate<M>) throws -> Int {
        try deleteAll(M.self, matching: predicate.expression)
    }

    /// Inserts `model`, or, when a row has the same values in the unique columns `key`
    /// (a `UNIQUE` constraint or index of the table), updates that row's other columns;
    /// sets an `Int64?` id after an insert.
    ///
    /// Requires a model that binds by column index (`@StoreModel` or a hand-written `storeColumns`).
    public func upsert<M: StoreModel>(_ model: inout M, onConflictOf key: [String]) throws {
        let storeColumns = try requireStoreColumns(M.self, for: "upsert(_:onConflictOf:)")
        try requireRowIDTable(M.tableName, of: M.self)
        let names = storeColumns.map(\.name)
        if let unknown = key.first(where: { !names.contains($0) }) {
            throw StoreError.misuse("\(M.self) has no column \(unknown)")
        }
        let quoted = names.map(SQLIdentifier.quote)
        let parameters = names.indices.map { "?\($0 + 1)" }
        // The primary key stays the stored row's; a key-only update still returns that row.
        let updated = names.indices.filter { !key.contains(names[$0]) && names[$0] != M.primaryKeyColumn }
        let assignments = (updated.isEmpty ? names.indices.filter { key.contains(names[$0]) } : updated)
            .map { "\(quoted[$0]) = excluded.\(quoted[$0])" }.joined(separator: ", ")
        let primaryKey = SQLIdentifier.quote(M.primaryKeyColumn)
        let sql =
            "INSERT INTO \(SQLIdentifier.quote(M.tableName)) (\(quoted.joined(separator: ", "))) VALUES (\(parameters.joined(separator: ", "))) ON CONFLICT(\(key.map(SQLIdentifier.quote).joined(separator: ", "))) DO UPDATE SET \(assignments) RETURNING \(primaryKey)"
        let statement = try cachedStatement(sql: sql)
        statement.reset()
        defer { statement.reset() }
        try model.encode(to: StoreBindings(statement: statement))
        // The row written, inserted or updated, returns its key: the model takes it.
        guard try statement.step() else { return }
        let stored = statement.value(at: 0)
        guard let id = M.ID.fromDatabaseValue(stored) else {
            throw StoreError.mismatch("\(M.self): cannot convert the stored key \(stored) to \(M.ID.self)", sql: sql)
        }
        model.id = id
        try statement.execute()
    }

    /// Inserts `model` or updates the row with the same values in the typed columns `key`.
    public func upsert<M: TypedStoreModel>(_ model: inout M, onConflictOf key: PartialKeyPath<M.Columns>...) throws {
        try upsert(&model, onConflictOf: Self.columnNames(of: M.self, key))
    }

    private func requireStoreColumns<M: StoreModel>(_ type: M.Type, for operation: String) throws -> [ModelColumn] {
        guard let columns = M.storeColumns else {
            throw StoreError.misuse("\(operation) needs a model with storeColumns (@StoreModel); \(M.self) is written through Codable")
        }
        return columns
    }
}

/// One `column = value` of `updateAll(_:set:where:)`, made by a typed column's `set(_:)`.
public struct ColumnAssignment<Model: StoreModel>: Sendable {
    /// The column to set.
    public let column: Column
    /// The value, bound.
    public let value: DatabaseValue
}

extension TypedColumn where Value: DatabaseValueConvertible {
    /// `column = value`, for `updateAll(_:set:where:)`.
    public func set(_ value: Value) -> ColumnAssignment<Model> {
        ColumnAssignment(column: column, value: value.databaseValue)
    }
}

/// A typed column seen without its value type, for key paths into a `Columns` namespace.
protocol TypedColumnName {
    var columnName: String { get }
}

extension TypedColumn: TypedColumnName {
    var columnName: String { name }
}
