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

    /// Orders by this column with `collation`, smallest first.
    public func ascending(collation: Collation) -> Ordering { Ordering(column: self, isAscending: true, collation: collation) }
    /// Orders by this column with `collation`, largest first.
    public func descending(collation: Collation) -> Ordering { Ordering(column: self, isAscending: false, collation: collation) }
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
    /// The collation that compares texts, or `nil` for the column's own.
    public var collation: Collation?

    /// Orders by `column`, with `collation` or the column's own.
    public init(column: Column, isAscending: Bool, collation: Collation? = nil) {
        self.column = column
        self.isAscending = isAscending
        self.collation = collation
    }

    /// The `ORDER BY` term.
    var sql: String {
        column.quoted + (collation.map { " COLLATE \(SQLIdentifier.quote($0.name))" } ?? "") + (isAscending ? " ASC" : " DESC")
    }
}

/// A named SQLite collation for sorts: a built-in one, or one registered with the store.
public struct Collation: Sendable, Hashable, CustomStringConvertible {
    /// The collation's name as SQLite knows it.
    public let name: String

    /// The collation registered under `name`.
    public init(_ name: String) { self.name = name }

    /// Bytes compared with `memcmp` (SQLite's default).
    public static let binary = Collation("BINARY")
    /// ASCII letters compared without case.
    public static let nocase = Collation("NOCASE")
    /// Trailing spaces ignored.
    public static let rtrim = Collation("RTRIM")

    public var description: String { name }
}
