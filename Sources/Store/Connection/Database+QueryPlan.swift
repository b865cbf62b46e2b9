extension Database {
    /// Whether SQLite's plan for `query` sorts in a temporary B-tree (`EXPLAIN QUERY PLAN`
    /// says `USE TEMP B-TREE`): no index serves its order (or its `DISTINCT`), so it reads
    /// every matching row before returning the first.
    package func sortsInTemporaryBTree(_ query: (sql: String, arguments: [DatabaseValue])) throws -> Bool {
        let plan = try cachedStatement(sql: "EXPLAIN QUERY PLAN " + query.sql)
        try plan.bind(query.arguments)
        defer { plan.reset() }
        while try plan.step() {
            // id, parent, notused, detail
            if case .text(let detail) = plan.value(at: 3), detail.contains("TEMP B-TREE") { return true }
        }
        return false
    }
}
