import PostgresNIO

/// Compaction (Docs/SyncCompaction.md): removing the changes that can no longer matter, so that
/// an account's log holds about one change per live cell (plus its deletes) however often its
/// rows are written.
extension ChangeLog {
    /// Compacts every account with changes older than `retention` since its last compaction,
    /// one account per transaction; returns how many accounts it compacted and how many changes
    /// it removed.
    func compact(olderThan retention: Duration) async throws -> (accounts: Int, removed: Int) {
        let seconds = retention.seconds
        let rows = try await client.query(
            """
            SELECT id FROM sync_accounts a WHERE EXISTS (
                SELECT 1 FROM sync_changes c
                WHERE c.account = a.id AND c.seq > a.compacted_through AND c.received < now() - make_interval(secs => \(seconds)))
            ORDER BY id
            """, logger: logger)
        var accounts: [Int64] = []
        for try await account in rows.decode(Int64.self) { accounts.append(account) }
        var removed = 0
        for account in accounts {
            removed += try await compact(account: account, olderThanSeconds: seconds)
        }
        return (accounts.count, removed)
    }

    /// Removes the account's superseded changes older than the window: a change whose cell (or,
    /// for a delete, whose row's deletes) has a change with a greater stamp, the devices' order
    /// (clock, then device id by bytes, then server sequence). A write is never removed for a
    /// delete: it shows again if a later write brings its row back. Only the cells written since
    /// the last compaction are looked at, in one transaction under the account's lock (the one
    /// its pushes take), so that no push interleaves. Returns how many changes it removed.
    ///
    /// Every cursor stays valid: `seq` keeps its gaps, and a device behind pulls the changes that
    /// won, which is what it would have applied last anyway.
    private func compact(account: Int64, olderThanSeconds seconds: Double) async throws -> Int {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(account))", logger: logger)
            var since: Int64 = 0
            var through: Int64 = 0
            let bounds = try await connection.query(
                """
                SELECT a.compacted_through, coalesce(max(c.seq), a.compacted_through) FROM sync_accounts a
                LEFT JOIN sync_changes c ON c.account = a.id AND c.received < now() - make_interval(secs => \(seconds))
                WHERE a.id = \(account) GROUP BY a.compacted_through
                """, logger: logger)
            for try await (from, to) in bounds.decode((Int64, Int64).self) { (since, through) = (from, to) }
            let removed = try await connection.query(
                """
                WITH touched AS (
                    SELECT DISTINCT tbl, pk, col FROM sync_changes WHERE account = \(account) AND seq > \(since)
                ), ranked AS (
                    SELECT c.seq, c.received, row_number() OVER (
                        PARTITION BY c.tbl, c.pk, c.col ORDER BY c.hlc DESC, c.device COLLATE "C" DESC, c.seq DESC) AS rank
                    FROM sync_changes c JOIN touched t
                      ON c.tbl COLLATE "C" = t.tbl COLLATE "C" AND c.pk COLLATE "C" = t.pk COLLATE "C"
                     AND c.col IS NOT DISTINCT FROM t.col
                    WHERE c.account = \(account)
                )
                DELETE FROM sync_changes WHERE seq IN (
                    SELECT seq FROM ranked WHERE rank > 1 AND received < now() - make_interval(secs => \(seconds)))
                RETURNING seq
                """, logger: logger)
            var count = 0
            for try await _ in removed.decode(Int64.self) { count += 1 }
            try await connection.query(
                "UPDATE sync_accounts SET compacted_through = \(through) WHERE id = \(account)", logger: logger)
            return count
        }
    }
}

extension Duration {
    /// The duration in seconds, for PostgreSQL's `make_interval(secs => …)`.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
