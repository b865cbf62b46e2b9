/// One column of a model's table, as the model declares it: what `db.check(_:)` compares
/// with the table.
public struct ModelColumn: Sendable, Hashable, CustomStringConvertible {
    /// The column's name, unquoted.
    public let name: String
    /// The type affinity the column should have, or `nil` when any will do (a type the
    /// library cannot classify, such as a `DatabaseValueConvertible` enum).
    public let affinity: ColumnAffinity?
    /// Whether the column may hold NULL (the property is optional).
    public let isNullable: Bool
    /// Whether the column is the primary key.
    public let isPrimaryKey: Bool

    /// A column named `name`.
    public init(_ name: String, affinity: ColumnAffinity?, isNullable: Bool = false, isPrimaryKey: Bool = false) {
        self.name = name
        self.affinity = affinity
        self.isNullable = isNullable
        self.isPrimaryKey = isPrimaryKey
    }

    public var description: String {
        var text = name + (affinity.map { " \($0.rawValue)" } ?? "")
        if isPrimaryKey { text += " PRIMARY KEY" }
        if !isNullable { text += " NOT NULL" }
        return text
    }
}

/// SQLite's type affinities (https://sqlite.org/datatype3.html#type_affinity).
public enum ColumnAffinity: String, Sendable, Hashable, CaseIterable {
    case integer = "INTEGER"
    case real = "REAL"
    case text = "TEXT"
    case blob = "BLOB"
    case numeric = "NUMERIC"

    /// The affinity SQLite gives a column declared with `declaredType`, by its five rules in order.
    public init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.isEmpty {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}
