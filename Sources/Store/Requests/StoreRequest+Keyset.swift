extension StoreRequest {
    /// The condition "sorts after the row whose sort key values are `keys` and whose rowid is
    /// `rowID`" in the request's order (ties by rowid, NULLs first ascending and last
    /// descending, each key compared with its ordering's collation): a keyset query's `WHERE`,
    /// which reads on from a row without counting the rows before it. `rowIDName` is how the
    /// table's rowid is read (`Database.rowIDName(of:)`).
    ///
    /// A first key value not NULL also bounds the condition with an implied `key >= value`
    /// (ascending) or `key <= value` (descending, when `firstKeyIsNeverNull`: the column is
    /// declared `NOT NULL`, for NULLs sort last descending and the bound would drop them):
    /// SQLite seeks to it in an index on the key, where it scans the index from its start for
    /// the chain of `OR`s alone.
    package func keysetCondition(
        after keys: [DatabaseValue], rowID: Int64, rowIDName: String, firstKeyIsNeverNull: Bool = false
    ) -> SQLExpression {
        var condition = SQLExpression(sql: "\(rowIDName) > ?", arguments: [.integer(rowID)], columns: nil)
        for (ordering, value) in zip(orderings, keys).reversed() {
            let (after, equal) = Self.comparisons(Self.key(ordering), value, isAscending: ordering.isAscending)
            condition = SQLExpression(
                sql: "\(after.sql) OR (\(equal.sql) AND (\(condition.sql)))",
                arguments: after.arguments + equal.arguments + condition.arguments, columns: nil)
        }
        guard let first = orderings.first, let value = keys.first, value != .null, first.isAscending || firstKeyIsNeverNull
        else { return condition }
        let key = Self.key(first)
        return SQLExpression(
            sql: "\(key.sql) \(first.isAscending ? ">=" : "<=") ? AND (\(condition.sql))",
            arguments: key.arguments + [value] + condition.arguments, columns: nil)
    }

    /// The ordering's key as SQL compares it: the column, then its collation when named, with
    /// the column's arguments (a related count's).
    static func key(_ ordering: Ordering) -> SQLExpression {
        SQLExpression(
            sql: ordering.column.sql + (ordering.collation.map { " " + $0.sql } ?? ""), arguments: ordering.arguments, columns: nil)
    }

    /// `key` sorting strictly after `value`, and `key` sorting with it, in SQLite's order.
    static func comparisons(
        _ key: SQLExpression, _ value: DatabaseValue, isAscending: Bool
    ) -> (after: SQLExpression, equal: SQLExpression) {
        let (sql, keyArguments) = (key.sql, key.arguments)
        guard value != .null else {
            let after = isAscending ? "(\(sql)) IS NOT NULL" : "0"
            return (
                SQLExpression(sql: after, arguments: isAscending ? keyArguments : [], columns: nil),
                SQLExpression(sql: "(\(sql)) IS NULL", arguments: keyArguments, columns: nil)
            )
        }
        let after =
            isAscending
            ? SQLExpression(sql: "\(sql) > ?", arguments: keyArguments + [value], columns: nil)
            : SQLExpression(sql: "(\(sql) < ? OR (\(sql)) IS NULL)", arguments: keyArguments + [value] + keyArguments, columns: nil)
        return (after, SQLExpression(sql: "\(sql) = ?", arguments: keyArguments + [value], columns: nil))
    }
}
