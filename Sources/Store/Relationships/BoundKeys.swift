/// A set of keys bound as one argument, a JSON array read by `json_each`, so that a query
/// for the rows related to any number of rows is one statement with one parameter (never
/// one per row, never above SQLite's limit on the number of parameters).
package struct BoundKeys {
    /// The JSON array of the distinct keys; NULL keys (no related row) are left out.
    package let argument: DatabaseValue

    /// `keys`, which must be integers, reals or text: a blob key throws `SQLITE_MISMATCH`.
    package init(_ keys: some Sequence<DatabaseValue>) throws {
        var seen: Set<DatabaseValue> = []
        var elements: [String] = []
        for key in keys where !key.isNull && seen.insert(key).inserted {
            elements.append(try Self.json(key))
        }
        argument = .text("[" + elements.joined(separator: ",") + "]")
    }

    /// `<column> IN (SELECT value FROM json_each(?))`, for `column` already written as SQL.
    static func membership(of column: String) -> String { "\(column) IN (SELECT value FROM json_each(?))" }

    private static func json(_ key: DatabaseValue) throws -> String {
        switch key {
        case .integer(let integer): return String(integer)
        case .real(let real) where real.isFinite: return "\(real)"
        case .text(let text): return quoted(text)
        default: throw StoreError.mismatch("a relationship key must be an integer, a finite real or text, not \(key)")
        }
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String {
        var json = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: json.unicodeScalars.append(scalar)
            }
        }
        return json + "\""
    }
}

extension Database {
    /// The models of a query whose last column, after the model's, is a key: each model with
    /// the key, in the query's order.
    func fetchKeyed<M: StoreModel>(_ type: M.Type, sql: String, arguments: [DatabaseValue]) throws -> [(model: M, key: DatabaseValue)] {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        let rows = ModelRows<M>(statement: statement)
        let keyColumn = statement.columnCount - 1
        var models: [(model: M, key: DatabaseValue)] = []
        while try statement.step() {
            models.append((try rows.decodeRow(), statement.value(at: keyColumn)))
        }
        return models
    }
}
