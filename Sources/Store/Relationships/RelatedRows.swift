/// The rows of `table` related to the current row of an outer query, tied to it by
/// `correlation`: what the predicates across relationships (`EXISTS`, counts) read.
///
/// The condition on the related rows is written with unqualified column names; inside the
/// subquery they name `table`'s columns, the innermost table in scope.
struct RelatedRows {
    /// The related table.
    let table: String
    /// The condition tying a row of `table` to the outer row, with qualified names.
    let correlation: String
    /// A join table the correlation reads, if any.
    var joinTable: String?
    /// The link of the related rows to the outer row when they are its children (a to-many
    /// relationship): a condition on their own columns then makes an expression whose value
    /// a changed child changes for its old and new parent only (`SQLExpression.childLinks`).
    var childLink: ToOneLink?

    /// `EXISTS (SELECT 1 FROM table WHERE correlation AND (condition))`.
    func exists(where condition: SQLExpression?) -> SQLExpression {
        let (sql, arguments) = subquery(selecting: "1", where: condition)
        return expression(sql: "EXISTS (\(sql))", arguments: arguments, condition: condition)
    }

    /// `(SELECT count(*) FROM table WHERE correlation AND (condition))`.
    func count(where condition: SQLExpression?) -> SQLExpression {
        aggregate("count(*)", where: condition)
    }

    /// `(SELECT result FROM table WHERE correlation AND (condition))`, where `result` is an
    /// aggregate function of the related rows (`count(*)`, `sum("score")`).
    func aggregate(_ result: String, where condition: SQLExpression?) -> SQLExpression {
        let (sql, arguments) = subquery(selecting: result, where: condition)
        return expression(sql: "(\(sql))", arguments: arguments, condition: condition)
    }

    private func subquery(selecting result: String, where condition: SQLExpression?) -> (String, [DatabaseValue]) {
        let filter = condition.map { " AND (\($0.sql))" } ?? ""
        return ("SELECT \(result) FROM \(SQLIdentifier.quote(table)) WHERE \(correlation)\(filter)", condition?.arguments ?? [])
    }

    /// The expression over the related rows: over children read by their own columns only,
    /// one whose changes the fetched-results controller traces to their parents; otherwise
    /// one it cannot analyse, which names the tables it reads (these, and those `condition` reads).
    private func expression(sql: String, arguments: [DatabaseValue], condition: SQLExpression?) -> SQLExpression {
        let readsOwnColumnsOnly = condition.map { $0.referencedColumns != nil && $0.relatedTables.isEmpty } ?? true
        if let childLink, readsOwnColumnsOnly {
            return SQLExpression(sql: sql, arguments: arguments, overChildrenThrough: childLink)
        }
        let tables = Set([table] + (joinTable.map { [$0] } ?? [])).union(condition?.relatedTables ?? [])
        return SQLExpression(sql: sql, arguments: arguments, columns: nil, tables: tables)
    }
}

extension ToOneLink {
    /// The condition tying a child row to the parent row of an outer query:
    /// `"item"."list_id" = "list"."id"`.
    var childCorrelation: String {
        "\(SQLIdentifier.quote(childTable)).\(SQLIdentifier.quote(foreignKey)) = "
            + "\(SQLIdentifier.quote(parentTable)).\(SQLIdentifier.quote(referencedKey))"
    }

    /// The condition tying the parent row to the child row of an outer query:
    /// `"list"."id" = "item"."list_id"`.
    var parentCorrelation: String {
        "\(SQLIdentifier.quote(parentTable)).\(SQLIdentifier.quote(referencedKey)) = "
            + "\(SQLIdentifier.quote(childTable)).\(SQLIdentifier.quote(foreignKey))"
    }
}
