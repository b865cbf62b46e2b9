/// The number of rows related to a row of `Model` (its children, its targets), compared
/// with a number to make a predicate (`TodoList.items.count > 3`), or read like a column to
/// sort and section live results by (`TodoList.items.count { $0.done == false }.descending`).
///
/// Written as a correlated `(SELECT count(*) …)` subquery; the number and the condition's
/// values are bound.
public struct RelatedCount<Model: StoreModel>: Sendable, CustomStringConvertible {
    /// The subquery counting the related rows.
    public let expression: SQLExpression
    /// The relationship's name followed by `.count`, as messages spell the count.
    let name: String
    /// The to-one link whose parent is the counting row: a to-many relationship's inverse,
    /// or a many-to-many relationship's source link (join table to the row).
    let link: ToOneLink
    /// The link of the counted children to the row, when they are a to-many relationship's
    /// and the count reads nothing but them: a child's foreign key then names the rows whose
    /// count it changes.
    let children: ToOneLink?
    /// The links of a many-to-many relationship's join table (to the row, to the target) when
    /// the count reads nothing but the pairs and the targets' own columns: a changed pair then
    /// names the row whose count it changes, and a changed target the rows paired with it.
    let pairs: (source: ToOneLink, target: ToOneLink)?

    init(
        _ expression: SQLExpression, relationship: String, from link: ToOneLink,
        pairs: (source: ToOneLink, target: ToOneLink)? = nil
    ) {
        self.expression = expression
        self.name = relationship + ".count"
        self.link = link
        children = RelatedAggregate.children(of: expression, through: link)
        self.pairs = pairs
    }

    public var description: String { expression.sql }

    /// The count read like a column of `Model`'s table, for `sectioned(by:)` and orderings; a fetched-results controller keeps it current as children come, go,
    /// move to another row or start or stop meeting the condition.
    public var column: Column {
        Column(name, computing: RelatedAggregate(expression, children: children))
    }

    /// Orders by the count, smallest first.
    public var ascending: Ordering { column.ascending }
    /// Orders by the count, largest first.
    public var descending: Ordering { column.descending }

    private func compared(_ op: String, _ number: Int) -> ModelPredicate<Model> {
        ModelPredicate(SQLExpression.comparison(column, op, Int64(number)))
    }

    /// Exactly `number` related rows.
    public static func == (count: Self, number: Int) -> ModelPredicate<Model> { count.compared("=", number) }
    /// Not exactly `number` related rows.
    public static func != (count: Self, number: Int) -> ModelPredicate<Model> { count.compared("<>", number) }
    /// Fewer than `number` related rows.
    public static func < (count: Self, number: Int) -> ModelPredicate<Model> { count.compared("<", number) }
    /// At most `number` related rows.
    public static func <= (count: Self, number: Int) -> ModelPredicate<Model> { count.compared("<=", number) }
    /// More than `number` related rows.
    public static func > (count: Self, number: Int) -> ModelPredicate<Model> { count.compared(">", number) }
    /// At least `number` related rows.
    public static func >= (count: Self, number: Int) -> ModelPredicate<Model> { count.compared(">=", number) }
}

extension StoreRequest {
    /// The request grouped into sections by `count` (sort by it first): lists by their
    /// number of open items, `.sectioned(by: TodoList.items.count { $0.done == false })`.
    public func sectioned(by count: RelatedCount<M>) -> Self {
        sectioned(by: count.column)
    }
}
