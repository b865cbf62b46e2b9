/// A column of model `Model` whose values are `Value`: the compiler checks every predicate,
/// ordering and section key built from it against the model.
///
/// `@StoreModel` generates one per stored property in the model's `Columns`, reachable as
/// `Item.columns.title` and as the argument of the request's closures:
///
/// ```swift
/// let request = StoreRequest<Item>()
///     .filter { $0.done == false && $0.title.hasPrefix("Buy") }
///     .order { $0.title.ascending(collation: .nocase) }
/// ```
public struct TypedColumn<Model: StoreModel, Value: Codable & Sendable>: Sendable, Hashable, CustomStringConvertible {
    /// The untyped column.
    public let column: Column

    /// The column named `name` (its SQL name, which may differ from the property's).
    public init(_ name: String) { self.column = Column(name) }

    /// The typed view of `column`, for example a column of a related model read through a link.
    public init(_ column: Column) { self.column = column }

    /// The column's SQL name.
    public var name: String { column.name }

    public var description: String { column.name }

    /// Orders by this column, smallest first (NULLs first, as in SQLite).
    public var ascending: Ordering { column.ascending }
    /// Orders by this column, largest first (NULLs last, as in SQLite).
    public var descending: Ordering { column.descending }

    /// Orders by this column with `collation`, smallest first.
    public func ascending(collation: Collation) -> Ordering { column.ascending(collation: collation) }
    /// Orders by this column with `collation`, largest first.
    public func descending(collation: Collation) -> Ordering { column.descending(collation: collation) }

    /// The condition `sql`, which starts with the column's SQL, with `arguments` after the
    /// column's own (see `SQLExpression(sql:arguments:reading:)`).
    func predicate(_ sql: String, _ arguments: [DatabaseValue]) -> ModelPredicate<Model> {
        ModelPredicate(SQLExpression(sql: sql, arguments: arguments, reading: column))
    }

    /// The condition comparing the column with `operand` by `op`, in the column's collation
    /// at any depth of links (see `Column.comparison(_:_:_:)`).
    func compared(_ op: String, _ operand: String, _ values: [DatabaseValue]) -> ModelPredicate<Model> {
        let (sql, arguments) = column.comparison(op, operand, values)
        return predicate(sql, arguments)
    }
}

/// A condition on the rows of `Model`'s table, built from its typed columns; it converts to
/// the untyped `SQLExpression` with `expression`.
public struct ModelPredicate<Model: StoreModel>: Sendable, CustomStringConvertible {
    /// The condition's SQL and arguments.
    public let expression: SQLExpression

    /// Wraps an untyped condition, for example an SQL fragment.
    public init(_ expression: SQLExpression) { self.expression = expression }

    public var description: String { expression.sql }

    /// Both conditions hold.
    public static func && (lhs: Self, rhs: Self) -> Self { Self(lhs.expression && rhs.expression) }
    /// Either condition holds.
    public static func || (lhs: Self, rhs: Self) -> Self { Self(lhs.expression || rhs.expression) }
    /// The condition does not hold (as in SQL, NOT NULL is NULL, which no row matches).
    public static prefix func ! (predicate: Self) -> Self { Self(!predicate.expression) }
}

/// A model whose columns are typed: what `@StoreModel` generates.
public protocol TypedStoreModel: StoreModel {
    /// The typed columns, one property per stored property.
    associatedtype Columns: Sendable
    /// The model's typed columns.
    static var columns: Columns { get }
}
