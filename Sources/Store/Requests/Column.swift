/// A column of the table a request reads, used to build predicates and orderings.
///
/// ```swift
/// let overdue = Column("due") < Date.now && Column("done") == false
/// ```
public struct Column: Sendable, Hashable, CustomStringConvertible {
    /// The column's name, unquoted.
    public let name: String

    /// The column named `name`; the name is quoted wherever it is written into SQL.
    public init(_ name: String) { self.name = name }

    /// The quoted identifier.
    public var quoted: String { SQLIdentifier.quote(name) }

    public var description: String { name }

    /// Orders by this column, smallest first (NULLs first, as in SQLite).
    public var ascending: Ordering { Ordering(column: self, isAscending: true) }
    /// Orders by this column, largest first (NULLs last, as in SQLite).
    public var descending: Ordering { Ordering(column: self, isAscending: false) }
}

/// One key of a sort order.
///
/// SQLite orders NULL before every other value, so NULLs come first in ascending order
/// and last in descending order; texts compare byte by byte (the `BINARY` collation).
public struct Ordering: Sendable, Hashable {
    /// The column to sort by.
    public let column: Column
    /// Whether smaller values come first.
    public let isAscending: Bool

    /// The `ORDER BY` term.
    var sql: String { column.quoted + (isAscending ? " ASC" : " DESC") }
}
