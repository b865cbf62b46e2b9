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
        return SQLExpression(
            sql: "\(Self.key(first)) \(first.isAscending ? ">=" : "<=") ? AND (\(condition.sql))",
            arguments: [value] + condition.arguments, columns: nil)
    }

    /// The ordering's key as SQL compares it: the column, then its collation when named.
    static func key(_ ordering: Ordering) -> String {
        ordering.column.sql + (ordering.collation.map { " " + $0.sql } ?? "")
    }

    /// `key` sorting strictly after `value`, and `key` sorting with it, in SQLite's order.
    static func comparisons(
        _ key: String, _ value: DatabaseValue, isAscending: Bool
    ) -> (after: SQLExpression, equal: SQLExpression) {
        guard value != .null else {
            let after = isAscending ? "(\(key)) IS NOT NULL" : "0"
            return (
                SQLExpression(sql: after, arguments: [], columns: nil), SQLExpression(sql: "(\(key)) IS NULL", arguments: [], columns: nil)
            )
        }
        let after = isAscending ? "\(key) > ?" : "(\(key) < ? OR (\(key)) IS NULL)"
        return (
            SQLExpression(sql: after, arguments: [value], columns: nil), SQLExpression(sql: "\(key) = ?", arguments: [value], columns: nil)
        )
    }
}
