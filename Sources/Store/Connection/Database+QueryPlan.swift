extension Database {
    /// Whether SQLite's plan for `query` sorts in a temporary B-tree (a line of
    /// `EXPLAIN QUERY PLAN` starts `USE TEMP B-TREE FOR`, followed by `ORDER BY`, `LAST TERM
    /// OF ORDER BY`, `DISTINCT`, `GROUP BY`…): no index serves its order (or its `DISTINCT`),
    /// so it reads every matching row before returning the first.
    package func sortsInTemporaryBTree(_ query: (sql: String, arguments: [DatabaseValue])) throws -> Bool {
        let plan = try cachedStatement(sql: "EXPLAIN QUERY PLAN " + query.sql)
        try plan.bind(query.arguments)
        defer { plan.reset() }
        while try plan.step() {
            // id, parent, notused, detail
            // `hasPrefix`, not Foundation's `contains`: that one was half of this check's time,
            // which every controller over an unindexed order makes (by `perf`).
            if case .text(let detail) = plan.value(at: 3), detail.hasPrefix("USE TEMP B-TREE") { return true }
        }
        return false
    }
}
