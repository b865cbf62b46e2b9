/// The number of rows related to a row of `Model` (its children, its targets), compared
/// with a number to make a predicate: `TodoList.items.count > 3`.
///
/// Written as a correlated `(SELECT count(*) …)` subquery; the number is bound.
public struct RelatedCount<Model: StoreModel>: Sendable, CustomStringConvertible {
    /// The subquery counting the related rows.
    public let expression: SQLExpression

    init(_ expression: SQLExpression) { self.expression = expression }

    public var description: String { expression.sql }

    private func compared(_ op: String, _ number: Int) -> ModelPredicate<Model> {
        ModelPredicate(
            SQLExpression(
                sql: "\(expression.sql) \(op) ?", arguments: expression.arguments + [.integer(Int64(number))],
                columns: nil, tables: expression.relatedTables))
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
