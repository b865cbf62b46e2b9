/// A value computed for each row of a request's table from the rows related to it (the
/// number of its children, or of those that meet a condition, the sum, least or greatest of
/// a column of theirs), read like a column to sort and section by: what
/// ``RelatedCount/column`` and ``RelatedValue/column`` hold.
///
/// It is a correlated subquery; the values of its condition are bound (`arguments`).
package struct RelatedAggregate: Sendable, Hashable {
    /// The subquery, with `?` placeholders.
    package let sql: String
    /// The values bound to the placeholders, in order.
    package let arguments: [DatabaseValue]
    /// The to-one link of the counted children to the row (child table, foreign key), when
    /// the value reads those children's own columns only: the fetched-results controller then
    /// finds the rows whose value a change can alter from the changed children's foreign key.
    package let children: ToOneLink?
    /// Every table the subquery reads.
    package let tables: Set<String>
}

extension RelatedAggregate {
    /// The value of `expression`, a subquery over the related rows; `children` as in ``children``.
    init(_ expression: SQLExpression, children: ToOneLink?) {
        self.init(sql: expression.sql, arguments: expression.arguments, children: children, tables: expression.relatedTables)
    }

    /// `link` when `expression`, a subquery over the children that `link` ties to the row,
    /// reads nothing but their own columns; `nil` otherwise.
    static func children(of expression: SQLExpression, through link: ToOneLink) -> ToOneLink? {
        expression.childLinks == [link] && expression.relatedTables == [link.childTable] ? link : nil
    }

    /// What the value reads, for an expression built around it: its children's own columns
    /// (and the key they point at), else tables that cannot be traced to the rows they change.
    var dependencies: SQLExpression {
        guard let children else { return SQLExpression(sql: sql, arguments: arguments, columns: nil, tables: tables) }
        return SQLExpression(sql: sql, arguments: arguments, overChildrenThrough: children)
    }
}
