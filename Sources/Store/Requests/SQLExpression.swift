/// A boolean SQL condition with its bound arguments, built from typed column expressions
/// or from an SQL fragment.
///
/// Values never enter the SQL text: they are bound as arguments. Column names are always
/// quoted. Expressions built from `Column`s know which columns they read, which lets the
/// fetched-results controller maintain results incrementally; SQL fragments do not.
public struct SQLExpression: Sendable, CustomStringConvertible {
    /// The SQL text with `?` placeholders.
    public let sql: String
    /// The values bound to the placeholders, in order.
    public let arguments: [DatabaseValue]
    /// The columns of the request's own table the expression reads (for a column read through
    /// a link, its foreign key), or `nil` for an SQL fragment that the library cannot analyse.
    public let referencedColumns: Set<String>?
    /// The to-one relationships whose related rows the expression reads.
    public let referencedLinks: Set<ToOneLink>
    /// The links of the children whose own columns the expression reads in subqueries (a
    /// to-many relationship's `any`, `count`, `sum`…, the child's foreign key to the row):
    /// a changed child can change the expression's value for its old and new parent only.
    package let childLinks: Set<ToOneLink>
    /// The tables other than the request's own whose rows the expression reads: the parent
    /// tables of `referencedLinks`, the child tables of `childLinks`, and the tables that
    /// other predicates across relationships read in subqueries (`EXISTS`, counts).
    public var relatedTables: Set<String> {
        untracedTables.union(referencedLinks.map(\.parentTable)).union(childLinks.map(\.childTable))
    }
    /// The tables read in subqueries whose rows cannot be traced to the rows of the request's
    /// table they change (a many-to-many relationship, a condition reading further tables):
    /// the fetched-results controller reads everything again when they change.
    package let untracedTables: Set<String>

    /// An SQL fragment with `?` placeholders and their arguments, such as
    /// `SQLExpression(sql: "length(title) > ?", arguments: [3])`.
    public init(sql: String, arguments: [any DatabaseValueConvertible] = []) {
        self.init(sql: sql, arguments: arguments.map(\.databaseValue), columns: nil)
    }

    init(
        sql: String, arguments: [DatabaseValue], columns: Set<String>?, links: Set<ToOneLink> = [], children: Set<ToOneLink> = [],
        tables: Set<String> = []
    ) {
        self.sql = sql
        self.arguments = arguments
        self.referencedColumns = columns
        self.referencedLinks = links
        self.childLinks = children
        self.untracedTables = tables
    }

    /// A subquery over the children `link` ties to the row that reads their own columns only:
    /// a changed child changes its value for its old and new parent only.
    init(sql: String, arguments: [DatabaseValue], overChildrenThrough link: ToOneLink) {
        self.init(sql: sql, arguments: arguments, columns: [link.referencedKey], children: [link])
    }

    /// An expression reading what `dependencies` reads: `sql`, with `arguments`, built around it.
    init(sql: String, arguments: [DatabaseValue], readingAs dependencies: SQLExpression) {
        self.init(
            sql: sql, arguments: arguments, columns: dependencies.referencedColumns, links: dependencies.referencedLinks,
            children: dependencies.childLinks, tables: dependencies.untracedTables)
    }

    /// An expression reading `column` only (through its link, if it has one), whose `sql`
    /// starts with the column's: the column's own arguments (a related count's) come first.
    /// A related count or value reads its children, or other tables the controller follows
    /// by reading everything again.
    init(sql: String, arguments: [DatabaseValue], reading column: Column) {
        guard let aggregate = column.aggregate else {
            self.init(sql: sql, arguments: arguments, columns: [column.ownColumn], links: Set(column.path))
            return
        }
        self.init(sql: sql, arguments: aggregate.arguments + arguments, readingAs: aggregate.dependencies)
    }

    public var description: String { sql }

    static func comparison(_ column: Column, _ op: String, _ value: some DatabaseValueConvertible) -> SQLExpression {
        let (sql, arguments) = column.comparison(op, "?", [value.databaseValue])
        return SQLExpression(sql: sql, arguments: arguments, reading: column)
    }

    private static func combine(_ lhs: SQLExpression, _ op: String, _ rhs: SQLExpression) -> SQLExpression {
        SQLExpression(
            sql: "(\(lhs.sql)) \(op) (\(rhs.sql))", arguments: lhs.arguments + rhs.arguments,
            columns: lhs.referencedColumns.flatMap { left in rhs.referencedColumns.map { left.union($0) } },
            links: lhs.referencedLinks.union(rhs.referencedLinks), children: lhs.childLinks.union(rhs.childLinks),
            tables: lhs.untracedTables.union(rhs.untracedTables))
    }

    /// Both conditions hold.
    public static func && (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
        combine(lhs, "AND", rhs)
    }

    /// Either condition holds.
    public static func || (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
        combine(lhs, "OR", rhs)
    }

    /// The condition does not hold (`NOT`; as in SQL, NOT NULL is NULL, which no row matches).
    public static prefix func ! (expression: SQLExpression) -> SQLExpression {
        SQLExpression(sql: "NOT (\(expression.sql))", arguments: expression.arguments, readingAs: expression)
    }
}

extension Column {
    /// `column IS value`: equality that also matches NULL to `nil`.
    public static func == (column: Column, value: some DatabaseValueConvertible) -> SQLExpression {
        SQLExpression.comparison(column, "IS", value)
    }

    /// `column IS NOT value`.
    public static func != (column: Column, value: some DatabaseValueConvertible) -> SQLExpression {
        SQLExpression.comparison(column, "IS NOT", value)
    }

    /// `column < value`.
    public static func < (column: Column, value: some DatabaseValueConvertible) -> SQLExpression {
        SQLExpression.comparison(column, "<", value)
    }

    /// `column <= value`.
    public static func <= (column: Column, value: some DatabaseValueConvertible) -> SQLExpression {
        SQLExpression.comparison(column, "<=", value)
    }

    /// `column > value`.
    public static func > (column: Column, value: some DatabaseValueConvertible) -> SQLExpression {
        SQLExpression.comparison(column, ">", value)
    }

    /// `column >= value`.
    public static func >= (column: Column, value: some DatabaseValueConvertible) -> SQLExpression {
        SQLExpression.comparison(column, ">=", value)
    }

    /// `column IN (values…)`; an empty list matches no row.
    public func `in`(_ values: [any DatabaseValueConvertible]) -> SQLExpression {
        guard !values.isEmpty else { return SQLExpression(sql: "0", arguments: [], columns: []) }
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        let (sql, arguments) = comparison("IN", "(\(placeholders))", values.map(\.databaseValue))
        return SQLExpression(sql: sql, arguments: arguments, reading: self)
    }

    /// `column LIKE pattern ESCAPE '\'`: `%` and `_` are wildcards, `\` escapes them; ASCII case-insensitive.
    public func like(_ pattern: String) -> SQLExpression {
        SQLExpression(sql: "\(sql) LIKE ? ESCAPE '\\'", arguments: [.text(pattern)], reading: self)
    }

    /// `column IS NULL`.
    public var isNull: SQLExpression { SQLExpression(sql: "\(sql) IS NULL", arguments: [], reading: self) }

    /// `column IS NOT NULL`.
    public var isNotNull: SQLExpression { SQLExpression(sql: "\(sql) IS NOT NULL", arguments: [], reading: self) }
}
