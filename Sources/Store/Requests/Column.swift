/// A column of the table a request reads, or of a row it points at through a to-one
/// relationship, used to build predicates and orderings; or a value computed from related
/// rows (``RelatedCount/column``), to sort and section by.
///
/// ```swift
/// let overdue = Column("due") < Date.now && Column("done") == false
/// ```
public struct Column: Sendable, Hashable, CustomStringConvertible {
    /// The column's name, unquoted.
    public let name: String
    /// The to-one relationships the column is read through, from the request's table on
    /// (`item → list → person` for the name of an item's list's owner); empty for a column of
    /// the request's own table.
    public let path: [ToOneLink]
    /// The value computed from related rows that the column reads instead of a stored column, if any.
    package let aggregate: RelatedAggregate?

    /// The column named `name` of the request's own table; the name is quoted wherever it is written into SQL.
    public init(_ name: String) {
        self.name = name
        path = []
        aggregate = nil
    }

    /// The value `aggregate` computes for each row, named `name` (for messages).
    init(_ name: String, computing aggregate: RelatedAggregate) {
        self.name = name
        path = []
        self.aggregate = aggregate
    }

    /// The column named `name` of the row that `link` points at: `Column("name", through: itemList)`.
    public init(_ name: String, through link: ToOneLink) {
        self.init(name, through: [link])
    }

    /// The column named `name` of the row reached by following `path`, one to-one link after
    /// the other from the request's table: `Column("name", through: [itemList, listOwner])`.
    /// Each link starts at the table the one before it points at.
    public init(_ name: String, through path: [ToOneLink]) {
        self.name = name
        self.path = path
        aggregate = nil
    }

    /// The table holding the column: the last link's parent table, or `nil` for the request's own table.
    public var relatedTable: String? { path.last?.parentTable }

    /// The quoted identifier (the name only, also for a column read through a link).
    public var quoted: String { SQLIdentifier.quote(name) }

    /// The SQL expression reading the column: the quoted identifier, for a column read
    /// through links the subquery on the related row (``ToOneLink/valueSQL(of:)``), nested
    /// once per link, and for a related count its subquery, whose `?` placeholders take
    /// ``arguments``.
    public var sql: String {
        if let aggregate { return aggregate.sql }
        guard let last = path.last else { return quoted }
        return last.valueSQL(of: name, forKey: lastKey)
    }

    /// The key that finds the last link's parent row: `nil` (the first link's foreign key)
    /// for one link, else the subqueries reading each link's key from the row the link before
    /// it found.
    private var lastKey: String? {
        zip(path, path.dropFirst()).reduce(nil as String?) { key, hop in hop.0.valueSQL(of: hop.1.foreignKey, forKey: key) }
    }

    /// The condition comparing the column with `operand` (SQL whose placeholders take
    /// `values`) by `op` (`IS`, `<`, `IN`, `BETWEEN`…), with the values to bind after the
    /// column's own ``arguments``. SQLite compares with the collation of a column operand
    /// (`NOCASE`, `RTRIM`), but a subquery carries none: for a column read through links the
    /// comparison is made inside the subquery on the related row, on the column itself, and
    /// made again on NULL when a link on the way finds no row, as comparing the subquery's
    /// NULL would.
    package func comparison(_ op: String, _ operand: String, _ values: [DatabaseValue]) -> (sql: String, arguments: [DatabaseValue]) {
        guard aggregate == nil, let last = path.last else { return ("\(sql) \(op) \(operand)", values) }
        let compared = last.valueSQL(selecting: "\(SQLIdentifier.quote(last.parentTable)).\(quoted) \(op) \(operand)", forKey: lastKey)
        return ("coalesce(\(compared), NULL \(op) \(operand))", values + values)
    }

    /// The values bound to the `?` placeholders of ``sql``, in order: none, except for a
    /// related count whose condition compares with values.
    public var arguments: [DatabaseValue] { aggregate?.arguments ?? [] }

    /// The request's own column the value depends on: the column itself, or the first link's foreign key.
    public var ownColumn: String { path.first?.foreignKey ?? name }

    public var description: String { (path.map(\.name) + [name]).joined(separator: ".") }

    /// Orders by this column, smallest first (NULLs first, as in SQLite), with the column's
    /// declared collation.
    public var ascending: Ordering { Ordering(column: self, isAscending: true) }
    /// Orders by this column, largest first (NULLs last, as in SQLite), with the column's
    /// declared collation.
    public var descending: Ordering { Ordering(column: self, isAscending: false) }

    /// Orders by this column with `collation` instead of its declared one, smallest first:
    /// `Column("name").ascending(collation: .nocase)`.
    public func ascending(collation: Collation) -> Ordering { Ordering(column: self, isAscending: true, collation: collation) }
    /// Orders by this column with `collation` instead of its declared one, largest first.
    public func descending(collation: Collation) -> Ordering { Ordering(column: self, isAscending: false, collation: collation) }
}

/// One key of a sort order.
///
/// SQLite orders NULL first, then numbers (INTEGER and REAL compared as numbers), then
/// text (by the collation: the ordering's, else the column's declared one, else `BINARY`,
/// which compares UTF-8 bytes), then blobs (bytes). NULLs come first in ascending order and
/// last in descending order.
public struct Ordering: Sendable, Hashable {
    /// The column to sort by.
    public let column: Column
    /// Whether smaller values come first.
    public let isAscending: Bool
    /// The collation named in the ordering, or `nil` for the column's declared collation.
    public let collation: Collation?

    /// Orders by `column`, with `collation` or the column's declared one.
    public init(column: Column, isAscending: Bool, collation: Collation? = nil) {
        self.column = column
        self.isAscending = isAscending
        self.collation = collation
    }

    /// The `ORDER BY` term: `"column" [COLLATE "name"] ASC|DESC`, whose `?` placeholders
    /// (a related count's) take ``arguments``.
    public var sql: String {
        column.sql + (collation.map { " " + $0.sql } ?? "") + (isAscending ? " ASC" : " DESC")
    }

    /// The values bound to the placeholders of ``sql``: the column's.
    public var arguments: [DatabaseValue] { column.arguments }
}
