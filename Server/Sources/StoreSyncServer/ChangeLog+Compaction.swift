import PostgresNIO

/// Compaction (Docs/SyncCompaction.md): removing the changes that can no longer matter, so that
/// an account's log holds about one change per live cell (plus its deletes) however often its
/// rows are written.
extension ChangeLog {
    /// Compacts every account with changes older than `retention` since its last compaction,
    /// one account at a time; returns how many accounts it compacted and how many changes
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

    /// How many rows one compaction transaction looks at: a push of the account waits for at
    /// most one such transaction (at most 0.08 s while 10,000 rows of 100 changes each were
    /// compacted, `SyncBenchmark compaction`; 0.42 s with 500 rows a transaction).
    static let compactionRowsPerTransaction = 100

    /// Removes the account's superseded changes older than the window: a change whose cell (or,
    /// for a delete, whose row's deletes) has a change with a greater stamp, the devices' order
    /// (clock, then device id by bytes, then server sequence). A write is never removed for a
    /// delete: it shows again if a later write brings its row back. Only the rows written since
    /// the last compaction are looked at, ``compactionRowsPerTransaction`` at a time, each batch
    /// in a transaction of its own under the account's lock (the one its pushes take), so that
    /// no push interleaves with one and none waits for more than one. The account's mark moves
    /// once every batch is done: a run cut short is done again by the next, which removes what
    /// is left. Returns how many changes it removed.
    ///
    /// Every cursor stays valid: `seq` keeps its gaps, and a device behind pulls the changes that
    /// won, which is what it would have applied last anyway.
    private func compact(account: Int64, olderThanSeconds seconds: Double) async throws -> Int {
        var since: Int64 = 0
        var through: Int64 = 0
        let bounds = try await client.query(
            """
            SELECT a.compacted_through, coalesce(max(c.seq), a.compacted_through) FROM sync_accounts a
            LEFT JOIN sync_changes c ON c.account = a.id AND c.received < now() - make_interval(secs => \(seconds))
            WHERE a.id = \(account) GROUP BY a.compacted_through
            """, logger: logger)
        for try await (from, to) in bounds.decode((Int64, Int64).self) { (since, through) = (from, to) }
        let touched = try await client.query(
            """
            SELECT DISTINCT tbl COLLATE "C", pk COLLATE "C" FROM sync_changes WHERE account = \(account) AND seq > \(since)
            ORDER BY 1, 2
            """, logger: logger)
        var rows: [(table: String, key: String)] = []
        for try await row in touched.decode((String, String).self) { rows.append(row) }
        var removed = 0
        var start = 0
        while start < rows.count {
            let batch = rows[start..<min(start + Self.compactionRowsPerTransaction, rows.count)]
            removed += try await compact(account: account, rows: batch, olderThanSeconds: seconds)
            start += batch.count
        }
        try await client.query("UPDATE sync_accounts SET compacted_through = \(through) WHERE id = \(account)", logger: logger)
        return removed
    }

    /// Removes the superseded changes of `rows` of the account, in one transaction under its lock.
    private func compact(
        account: Int64, rows: ArraySlice<(table: String, key: String)>, olderThanSeconds seconds: Double
    ) async throws -> Int {
        let (tables, keys) = (rows.map(\.table), rows.map(\.key))
        return try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(account))", logger: logger)
            // The sort by cell is the work: by bytes, in memory (PostgreSQL's default 4 MB would
            // spill a large batch to disk).
            try await connection.query("SET LOCAL work_mem = '64MB'", logger: logger)
            let removed = try await connection.query(
                """
                WITH ranked AS (
                    SELECT c.seq, c.received, row_number() OVER (
                        PARTITION BY c.tbl COLLATE "C", c.pk COLLATE "C", c.col COLLATE "C"
                        ORDER BY c.hlc DESC, c.device COLLATE "C" DESC, c.seq DESC) AS rank
                    FROM unnest(\(tables)::text[], \(keys)::text[]) AS t(tbl, pk)
                    JOIN sync_changes c ON c.account = \(account) AND c.tbl COLLATE "C" = t.tbl COLLATE "C"
                        AND c.pk COLLATE "C" = t.pk COLLATE "C"
                ), removed AS (
                    DELETE FROM sync_changes s USING ranked r
                    WHERE s.seq = r.seq AND r.rank > 1 AND r.received < now() - make_interval(secs => \(seconds))
                    RETURNING 1
                )
                SELECT count(*) FROM removed
                """, logger: logger)
            var count = 0
            for try await removedCount in removed.decode(Int64.self) { count = Int(removedCount) }
            return count
        }
    }
}

extension Duration {
    /// The duration in seconds, for PostgreSQL's `make_interval(secs => …)`.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
