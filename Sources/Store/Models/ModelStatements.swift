/// Statements for writing models, cached per connection by operation and column list, so that
/// inserting many models of one type builds the SQL and resolves columns once.
final class ModelStatements {
    private struct Key: Hashable {
        let operation: Operation
        let table: String
    }

    enum Operation { case insert, update, upsert }

    private var cache: [Key: (columns: [String], statement: Statement)] = [:]
    /// A reusable buffer for encoding models.
    let row = EncodedRow()

    /// The statement for `operation` on `table` with the encoded row's columns.
    func statement(_ operation: Operation, table: String, primaryKey: String, in db: Database) throws -> Statement {
        let key = Key(operation: operation, table: table)
        if let cached = cache[key], cached.columns == row.columns {
            cached.statement.reset()
            return cached.statement
        }
        let sql = Self.sql(operation, table: table, primaryKey: primaryKey, columns: row.columns)
        let statement = try db.cachedStatement(sql: sql)
        cache[key] = (row.columns, statement)
        return statement
    }

    private static func sql(_ operation: Operation, table: String, primaryKey: String, columns: [String]) -> String {
        let table = SQLIdentifier.quote(table)
        let quoted = columns.map(SQLIdentifier.quote)
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let nonKey = quoted.filter { $0 != SQLIdentifier.quote(primaryKey) }
        switch operation {
        case .insert:
            return columns.isEmpty ? "INSERT INTO \(table) DEFAULT VALUES"
                : "INSERT INTO \(table) (\(quoted.joined(separator: ", "))) VALUES (\(placeholders))"
        case .update:
            // Arguments: the row's values in column order, then the key again for WHERE.
            return "UPDATE \(table) SET \(quoted.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(SQLIdentifier.quote(primaryKey)) = ?"
        case .upsert:
            let assignments = nonKey.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            let action = assignments.isEmpty ? "NOTHING" : "UPDATE SET \(assignments)"
            return "INSERT INTO \(table) (\(quoted.joined(separator: ", "))) VALUES (\(placeholders)) ON CONFLICT(\(SQLIdentifier.quote(primaryKey))) DO \(action)"
        }
    }
}
