/// A value computed from the children of a row of `Model`: the sum, the least or the
/// greatest value of one of their columns (`TodoList.items.sum(\.score)`), of all of them or
/// of those that meet a condition, read like a column to sort and section live results by
/// (`TodoList.items.max(\.score).descending`), read with each row
/// (``StoreRequest/including(_:as:)-(RelatedValue<M>,_)``) and compared with a value to
/// filter by (`TodoList.items.sum(\.score) > 10`).
///
/// Written as a correlated `(SELECT sum(…) …)` subquery and computed as SQLite computes it:
/// NULLs are ignored, and over no rows (or NULLs only) each is NULL, not 0 (sorted first in
/// ascending order, a section named `nil`). Integers sum to an integer, a REAL makes the sum
/// REAL. The condition's values are bound.
public struct RelatedValue<Model: StoreModel>: Sendable, CustomStringConvertible {
    /// The subquery computing the value.
    public let expression: SQLExpression
    /// The relationship's name followed by the function and the column (`items.sum(score)`), as messages spell it.
    let name: String
    /// The to-one link of the children to the row: the to-many relationship's inverse.
    let link: ToOneLink
    /// `link`, when the value reads nothing but the children's own columns: a child's foreign
    /// key then names the rows whose value it changes.
    let children: ToOneLink?

    init(_ expression: SQLExpression, name: String, from link: ToOneLink) {
        self.expression = expression
        self.name = name
        self.link = link
        children = RelatedAggregate.children(of: expression, through: link)
    }

    public var description: String { expression.sql }

    /// The value read like a column of `Model`'s table, for `sectioned(by:)` and orderings; a
    /// fetched-results controller keeps it current as children come, go, move to another row,
    /// change the column or start or stop meeting the condition.
    public var column: Column { Column(name, computing: RelatedAggregate(expression, children: children)) }

    /// Orders by the value, smallest first (NULL first).
    public var ascending: Ordering { column.ascending }
    /// Orders by the value, largest first (NULL last).
    public var descending: Ordering { column.descending }

    /// The value is `value` (`IS`: a NULL value, over no children, matches `nil`).
    public static func == (lhs: Self, value: some DatabaseValueConvertible) -> ModelPredicate<Model> {
        ModelPredicate(lhs.column == value)
    }
    /// The value is not `value` (`IS NOT`).
    public static func != (lhs: Self, value: some DatabaseValueConvertible) -> ModelPredicate<Model> {
        ModelPredicate(lhs.column != value)
    }
    /// The value is less than `value` (never true for a NULL value).
    public static func < (lhs: Self, value: some DatabaseValueConvertible) -> ModelPredicate<Model> {
        ModelPredicate(lhs.column < value)
    }
    /// The value is at most `value` (never true for a NULL value).
    public static func <= (lhs: Self, value: some DatabaseValueConvertible) -> ModelPredicate<Model> {
        ModelPredicate(lhs.column <= value)
    }
    /// The value is greater than `value` (never true for a NULL value):
    /// `TodoList.items.sum(\.score) > 10`.
    public static func > (lhs: Self, value: some DatabaseValueConvertible) -> ModelPredicate<Model> {
        ModelPredicate(lhs.column > value)
    }
    /// The value is at least `value` (never true for a NULL value).
    public static func >= (lhs: Self, value: some DatabaseValueConvertible) -> ModelPredicate<Model> {
        ModelPredicate(lhs.column >= value)
    }
}

extension ToMany where Child: TypedStoreModel {
    /// The sum of `column` over the children (those that meet `condition`, if given):
    /// `TodoList.items.sum(\.score) { $0.title != "draft" }`. NULL when no child has a value.
    public func sum<Value>(
        _ column: KeyPath<Child.Columns, TypedColumn<Child, Value>>, where condition: ((Child.Columns) -> ModelPredicate<Child>)? = nil
    ) -> RelatedValue<Parent> {
        aggregate("sum", column, condition)
    }

    /// The least value of `column` among the children (those that meet `condition`, if
    /// given), ignoring NULLs: `TodoList.items.min(\.score)`. NULL when no child has a value.
    public func min<Value>(
        _ column: KeyPath<Child.Columns, TypedColumn<Child, Value>>, where condition: ((Child.Columns) -> ModelPredicate<Child>)? = nil
    ) -> RelatedValue<Parent> {
        aggregate("min", column, condition)
    }

    /// The greatest value of `column` among the children (those that meet `condition`, if
    /// given), ignoring NULLs: `TodoList.items.max(\.score)`. NULL when no child has a value.
    public func max<Value>(
        _ column: KeyPath<Child.Columns, TypedColumn<Child, Value>>, where condition: ((Child.Columns) -> ModelPredicate<Child>)? = nil
    ) -> RelatedValue<Parent> {
        aggregate("max", column, condition)
    }

    private func aggregate<Value>(
        _ function: String, _ column: KeyPath<Child.Columns, TypedColumn<Child, Value>>,
        _ condition: ((Child.Columns) -> ModelPredicate<Child>)?
    ) -> RelatedValue<Parent> {
        let name = Child.columns[keyPath: column].name
        let expression = childRows.aggregate(
            "\(function)(\(SQLIdentifier.quote(link.childTable)).\(SQLIdentifier.quote(name)))",
            where: condition.map { $0(Child.columns).expression })
        return RelatedValue(expression, name: "\(self.name).\(function)(\(name))", from: link)
    }
}

extension StoreRequest {
    /// The request grouped into sections by `value` (sort by it first): lists by their
    /// greatest score, `.sectioned(by: TodoList.items.max(\.score))`.
    public func sectioned(by value: RelatedValue<M>) -> Self {
        sectioned(by: value.column)
    }
}
