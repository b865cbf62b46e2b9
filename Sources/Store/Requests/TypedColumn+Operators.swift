/// Comparisons with values of the column's own type. Values are always bound.
extension TypedColumn where Value: DatabaseValueConvertible {
    /// `column IS value`: equality that also matches NULL to `nil`.
    public static func == (column: Self, value: Value) -> ModelPredicate<Model> {
        column.compared("IS", "?", [value.databaseValue])
    }

    /// `column IS NOT value`.
    public static func != (column: Self, value: Value) -> ModelPredicate<Model> {
        column.compared("IS NOT", "?", [value.databaseValue])
    }

    /// `column < value`.
    public static func < (column: Self, value: Value) -> ModelPredicate<Model> {
        column.compared("<", "?", [value.databaseValue])
    }

    /// `column <= value`.
    public static func <= (column: Self, value: Value) -> ModelPredicate<Model> {
        column.compared("<=", "?", [value.databaseValue])
    }

    /// `column > value`.
    public static func > (column: Self, value: Value) -> ModelPredicate<Model> {
        column.compared(">", "?", [value.databaseValue])
    }

    /// `column >= value`.
    public static func >= (column: Self, value: Value) -> ModelPredicate<Model> {
        column.compared(">=", "?", [value.databaseValue])
    }

    /// `column IN (values…)`; an empty sequence matches no row.
    public func `in`(_ values: some Sequence<Value>) -> ModelPredicate<Model> {
        let arguments = values.map(\.databaseValue)
        guard !arguments.isEmpty else { return ModelPredicate(SQLExpression(sql: "0", arguments: [], columns: [])) }
        let placeholders = Array(repeating: "?", count: arguments.count).joined(separator: ", ")
        return compared("IN", "(\(placeholders))", arguments)
    }

    /// `column BETWEEN lower AND upper`: both bounds included.
    public func between(_ lower: Value, and upper: Value) -> ModelPredicate<Model> {
        compared("BETWEEN", "? AND ?", [lower.databaseValue, upper.databaseValue])
    }

    /// `column BETWEEN range.lowerBound AND range.upperBound`.
    public func between(_ range: ClosedRange<Value>) -> ModelPredicate<Model> where Value: Comparable {
        between(range.lowerBound, and: range.upperBound)
    }
}

/// Tests for NULL, on optional columns only.
extension TypedColumn where Value: ExpressibleByNilLiteral {
    /// `column IS NULL`.
    public var isNull: ModelPredicate<Model> { predicate("\(column.sql) IS NULL", []) }
    /// `column IS NOT NULL`.
    public var isNotNull: ModelPredicate<Model> { predicate("\(column.sql) IS NOT NULL", []) }
}

/// Text searches, on text columns (optional or not).
extension TypedColumn where Value: TextColumnValue {
    /// Whether the text starts with `prefix`, byte for byte (case-sensitive, as `hasPrefix`
    /// but without Unicode canonical equivalence). Written as `LIKE 'prefix%' ESCAPE '\'`,
    /// with `%`, `_` and `\` in `prefix` escaped, narrowed to exact case by `instr`.
    public func hasPrefix(_ prefix: String) -> ModelPredicate<Model> {
        predicate(
            "\(column.sql) LIKE ? ESCAPE '\\' AND instr(\(column.sql), ?) = 1",
            [.text(LikePattern.escaped(prefix) + "%")] + column.arguments + [.text(prefix)])
    }

    /// Whether the text contains `text`, byte for byte (case-sensitive). Written as
    /// `LIKE '%text%' ESCAPE '\'`, with wildcards in `text` escaped, narrowed to exact case by `instr`.
    public func contains(_ text: String) -> ModelPredicate<Model> {
        predicate(
            "\(column.sql) LIKE ? ESCAPE '\\' AND instr(\(column.sql), ?) > 0",
            [.text("%" + LikePattern.escaped(text) + "%")] + column.arguments + [.text(text)])
    }

    /// `column LIKE pattern ESCAPE '\'`: `%` and `_` are wildcards, `\` escapes them; ASCII
    /// case-insensitive, as SQLite's `LIKE`.
    public func like(_ pattern: String) -> ModelPredicate<Model> {
        ModelPredicate(column.like(pattern))
    }
}

/// Text or optional text: the columns that `hasPrefix`, `contains` and `like` accept.
public protocol TextColumnValue {}
extension String: TextColumnValue {}
extension Optional: TextColumnValue where Wrapped == String {}

/// Escaping for `LIKE … ESCAPE '\'` patterns.
enum LikePattern {
    /// `text` with `\`, `%` and `_` escaped by `\`, so that it matches only itself.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            if character == "\\" || character == "%" || character == "_" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(character)
        }
        return escaped
    }
}
