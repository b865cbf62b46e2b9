/// Statements for writing models, cached per connection by operation and model type, so that
/// writing many models of one type builds the SQL and resolves columns once, and each value
/// is bound straight to its parameter as the model encodes.
final class ModelStatements {
    private struct Key: Hashable {
        let operation: Operation
        let model: ObjectIdentifier
    }

    enum Operation { case insert, update, upsert }

    private var cache: [Key: ModelStatement] = [:]
    /// The entry used last, tried before hashing: writes usually repeat one operation on one type.
    private var lastUsed: (key: Key, statement: ModelStatement)?
    private let encoder = RowEncoder()
    /// The statements of models that bind by column index (`storeColumns`), and the one used last.
    private var indexed: [Key: Statement] = [:]
    private var lastIndexed: (key: Key, statement: Statement)?

    /// The statement for `operation` on `M`'s table, with `model`'s values bound to its
    /// first parameters, in column order.
    func statement<M: StoreModel>(_ operation: Operation, binding model: M, in db: Database) throws -> Statement {
        let key = Key(operation: operation, model: ObjectIdentifier(M.self))
        if let lastIndexed, lastIndexed.key == key {
            // Only models with `storeColumns` have indexed statements: the repeated write skips reading them.
            return try bind(model, to: lastIndexed.statement)
        }
        if let columns = M.storeColumns {
            return try indexedStatement(key, columns: columns, binding: model, in: db)
        }
        if let cached = cachedStatement(for: key), cached.table == M.tableName {
            do {
                try cached.bind(model, with: encoder)
                return cached.statement
            } catch is ColumnsChanged {
                // The model encodes other columns this time (a custom `encode(to:)`): start afresh.
            }
        }
        let row = EncodedRow()
        try encoder.encode(model, into: row)
        let sql = Self.sql(operation, table: M.tableName, primaryKey: M.primaryKeyColumn, columns: row.columns)
        let statement = try db.cachedStatement(sql: sql)
        for (index, value) in row.values.enumerated() {
            try statement.bind(value, at: index + 1)
        }
        let cached = ModelStatement(table: M.tableName, columns: row.columns, statement: statement)
        cache[key] = cached
        lastUsed = (key, cached)
        return statement
    }

    /// The statement for `key` of a model with `storeColumns`, rewound, with `model` bound by
    /// column index (column `i` to parameter `i + 1`).
    private func indexedStatement<M: StoreModel>(
        _ key: Key, columns: [ModelColumn], binding model: M,
        in db: Database
    ) throws -> Statement {
        let statement: Statement
        if let cached = indexed[key] {
            statement = cached
        } else {
            let sql = Self.indexedSQL(
                key.operation, table: M.tableName, primaryKey: M.primaryKeyColumn,
                columns: columns.map(\.name))
            statement = try db.cachedStatement(sql: sql)
            indexed[key] = statement
        }
        lastIndexed = (key, statement)
        return try bind(model, to: statement)
    }

    /// `statement`, rewound, with `model` bound by column index.
    private func bind<M: StoreModel>(_ model: M, to statement: Statement) throws -> Statement {
        statement.reset()
        try model.encode(to: StoreBindings(statement: statement))
        return statement
    }

    /// The SQL of `operation` whose parameter `?i` is column `i - 1`, so that a model binds
    /// every column at its own index whatever the operation.
    static func indexedSQL(_ operation: Operation, table: String, primaryKey: String, columns: [String]) -> String {
        let table = SQLIdentifier.quote(table)
        let quoted = columns.map(SQLIdentifier.quote)
        let parameters = columns.indices.map { "?\($0 + 1)" }
        let key = SQLIdentifier.quote(primaryKey)
        let keyParameter = columns.firstIndex(of: primaryKey).map { parameters[$0] } ?? "NULL"
        let nonKey = columns.indices.filter { columns[$0] != primaryKey }
        switch operation {
        case .insert:
            return "INSERT INTO \(table) (\(quoted.joined(separator: ", "))) VALUES (\(parameters.joined(separator: ", ")))"
        case .update:
            let assignments = nonKey.isEmpty ? ["\(key) = \(keyParameter)"] : nonKey.map { "\(quoted[$0]) = \(parameters[$0])" }
            return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(key) = \(keyParameter)"
        case .upsert:
            let assignments = nonKey.map { "\(quoted[$0]) = excluded.\(quoted[$0])" }.joined(separator: ", ")
            let action = assignments.isEmpty ? "NOTHING" : "UPDATE SET \(assignments)"
            return
                "INSERT INTO \(table) (\(quoted.joined(separator: ", "))) VALUES (\(parameters.joined(separator: ", "))) ON CONFLICT(\(key)) DO \(action)"
        }
    }

    /// Drops every statement, before the connection closes.
    func removeAll() {
        cache.removeAll()
        lastUsed = nil
        indexed.removeAll()
        lastIndexed = nil
    }

    private func cachedStatement(for key: Key) -> ModelStatement? {
        if let lastUsed, lastUsed.key == key { return lastUsed.statement }
        let statement = cache[key]
        lastUsed = statement.map { (key, $0) }
        return statement
    }

    private static func sql(_ operation: Operation, table: String, primaryKey: String, columns: [String]) -> String {
        let table = SQLIdentifier.quote(table)
        let quoted = columns.map(SQLIdentifier.quote)
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let nonKey = quoted.filter { $0 != SQLIdentifier.quote(primaryKey) }
        switch operation {
        case .insert:
            return columns.isEmpty
                ? "INSERT INTO \(table) DEFAULT VALUES"
                : "INSERT INTO \(table) (\(quoted.joined(separator: ", "))) VALUES (\(placeholders))"
        case .update:
            // Arguments: the row's values in column order, then the key again for WHERE.
            return "UPDATE \(table) SET \(quoted.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(SQLIdentifier.quote(primaryKey)) = ?"
        case .upsert:
            let assignments = nonKey.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            let action = assignments.isEmpty ? "NOTHING" : "UPDATE SET \(assignments)"
            return
                "INSERT INTO \(table) (\(quoted.joined(separator: ", "))) VALUES (\(placeholders)) ON CONFLICT(\(SQLIdentifier.quote(primaryKey))) DO \(action)"
        }
    }
}

/// A cached write statement whose first parameters take a row's columns, in order.
private final class ModelStatement: EncodedColumns {
    let table: String
    let columns: [String]
    let statement: Statement
    /// How many columns of the row being bound have been bound.
    private var boundCount = 0
    /// Whether the row being bound has had a column the statement did not expect: remembered
    /// in case a custom `encode(to:)` catches the `ColumnsChanged` error.
    private var columnsChanged = false

    init(table: String, columns: [String], statement: Statement) {
        self.table = table
        self.columns = columns
        self.statement = statement
    }

    /// Rewinds the statement and binds `model` to it; throws `ColumnsChanged` when the
    /// model encodes other columns than the statement's.
    func bind<M: Encodable>(_ model: M, with encoder: RowEncoder) throws {
        statement.reset()
        boundCount = 0
        columnsChanged = false
        do {
            try encoder.encode(model, into: self)
        } catch  where columnsChanged {
            throw ColumnsChanged()
        }
        guard !columnsChanged, boundCount == columns.count else { throw ColumnsChanged() }
    }

    func append(_ value: DatabaseValue, column: String) throws {
        guard !columnsChanged, boundCount < columns.count, columns[boundCount] == column else {
            columnsChanged = true
            throw ColumnsChanged()
        }
        boundCount += 1
        try statement.bind(value, at: boundCount)
    }
}
