/// One result row, copied out of its statement.
public struct Row: Sendable, Hashable, CustomStringConvertible {
    /// The column names, in order.
    public let columnNames: [String]
    /// The values, in column order.
    public let values: [DatabaseValue]

    /// Creates a row from names and values of equal count.
    public init(columnNames: [String], values: [DatabaseValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// The value at column `index` (0-based).
    public subscript(index: Int) -> DatabaseValue { values[index] }

    /// The value of the first column named `name` (ASCII letters in any case, as SQLite compares
    /// names), or `nil` if there is none.
    public subscript(name: String) -> DatabaseValue? {
        columnNames.firstIndex { $0.matchesSQLiteIdentifier(name) }.map { values[$0] }
    }

    /// The value of column `name` converted to `T`; throws when the column is missing or does not convert.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, column name: String) throws -> T {
        guard let value = self[name] else { throw StoreError(code: .range, message: "no column named \(name)") }
        return try T.decode(value, context: "column \(name)")
    }

    public var description: String {
        "[" + zip(columnNames, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }
}

/// Iterates the rows of a query one at a time, without building an array.
///
/// A cursor is valid only inside the closure that received its database:
/// `while let row = try cursor.next() { … }`.
public struct RowCursor {
    let statement: Statement
    private var finished = false

    init(statement: Statement) { self.statement = statement }

    /// The next row, or `nil` at the end; throws the SQLite error that stopped the query.
    public mutating func next() throws -> Row? {
        guard !finished else { return nil }
        guard try statement.step() else {
            finished = true
            return nil
        }
        return Row(columnNames: statement.columnNames, values: statement.values())
    }
}
