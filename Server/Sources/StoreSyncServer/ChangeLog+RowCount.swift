import Logging
import PostgresNIO

extension ChangeLog {
    /// About how many rows the change log holds, without reading it: PostgreSQL's own estimate,
    /// the planner's (`pg_class.reltuples` per page at the last analyze, times the table's
    /// pages now). Exact (`count(*)`) while the table was never analyzed, which autovacuum does
    /// soon after its first rows; nil when the table does not exist.
    func estimatedRowCount() async throws -> Int64? {
        let rows = try await client.query(
            """
            SELECT to_regclass('sync_changes') IS NOT NULL, (
                SELECT CASE WHEN c.relpages > 0 AND c.reltuples >= 0
                    THEN (c.reltuples / c.relpages * (pg_relation_size(c.oid) / current_setting('block_size')::int))::bigint END
                FROM pg_class c WHERE c.oid = to_regclass('sync_changes'))
            """, logger: logger)
        var estimate: (exists: Bool, rows: Int64?) = (false, nil)
        for try await row in rows.decode((Bool, Int64?).self) { estimate = row }
        guard estimate.exists else { return nil }
        if let rows = estimate.rows { return rows }
        for try await count in try await client.query("SELECT count(*) FROM sync_changes", logger: logger).decode(Int64.self) {
            return count
        }
        return nil
    }
}
