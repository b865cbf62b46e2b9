import PostgresNIO
import SQLiteStoreSyncProtocol

/// Snapshots: an account's current state, read from its changes by the merge rule in set-based
/// queries, a page of rows at a time.
///
/// A snapshot is bound to a server sequence, its cursor: every page reads only the changes
/// numbered up to it. An account's changes become visible in sequence order (``ChangeLog/store(_:schemaVersion:account:)``),
/// and the log only grows, so the pages of one snapshot describe one state however long apart
/// they are read, by whichever server process, and the pulls after the cursor bring the rest once.
extension ChangeLog {
    /// The account's latest server sequence (0: none yet): a new snapshot's cursor.
    func latestSequence(account: Int64) async throws -> Int64 {
        let rows = try await client.query(
            "SELECT coalesce(max(seq), 0) FROM sync_changes WHERE account = \(account)", logger: logger)
        for try await latest in rows.decode(Int64.self) { return latest }
        return 0
    }

    /// The changes of up to `limit` rows after `position` (from the start when nil), among the
    /// account's changes up to `cursor`, for ``SnapshotPageWriter`` to pick each row's winning
    /// cell per column (greatest clock, then device id by bytes, then server sequence) and its
    /// latest delete.
    ///
    /// PostgreSQL reads the rows' changes in one ordered scan of `sync_changes_by_row` that stops
    /// after the `limit`-th row (a `dense_rank` run condition), and the writer picks the winners:
    /// a page of 5,000 rows of three cells took 80–100 ms when PostgreSQL picked them (a second
    /// index scan per row, then a sort of every cell), 40–55 ms so. It answers with one row of
    /// seven arrays, one element per change, instead of one row per change: PostgresNIO decoded
    /// 15,000 cells in 60–80 ms as rows and in 15–20 ms as arrays, which ``PostgresBinaryArray``
    /// now reads as bytes. The arrays follow the window's (table, key) order, which the writer
    /// checks; they hold no NULL: a delete's column and value are empty strings, a name no column
    /// has (a push that sets one is refused). The answer also counts the page's rows: once
    /// PostgreSQL answered, `nextKnown` learns where a full page's next one starts, before the
    /// server writes this one.
    func snapshot(
        account: Int64, upTo cursor: Int64, after position: SyncSnapshotPosition?, limit: Int,
        nextKnown: @escaping @Sendable (SyncSnapshotPosition) async -> Void
    ) async throws -> SnapshotChanges {
        let afterTable = position?.table ?? ""
        let afterKey = position?.key ?? ""
        return try await client.withTransaction(logger: logger) { connection in
            // The page's keys must come from an ordered scan of the index that stops after them;
            // with no statistics yet (a log just filled, before autovacuum analyzes it) the
            // planner estimates a few rows and reads and sorts every key after the position
            // instead: 760 ms for the first page of 300k changes, 130 ms with the index.
            try await connection.query(
                "SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)", logger: logger)
            return try await snapshotPage(
                on: connection, account: account, upTo: cursor, afterTable: afterTable, afterKey: afterKey, limit: limit,
                nextKnown: nextKnown)
        }
    }

    /// The query of ``snapshot(account:upTo:after:limit:nextKnown:)`` on `connection`.
    private func snapshotPage(
        on connection: PostgresConnection, account: Int64, upTo cursor: Int64, afterTable: String, afterKey: String, limit: Int,
        nextKnown: @escaping @Sendable (SyncSnapshotPosition) async -> Void
    ) async throws -> SnapshotChanges {
        let rows = try await connection.query(
            """
            SELECT coalesce(array_agg(tbl), '{}'), coalesce(array_agg(pk), '{}'), coalesce(array_agg(coalesce(col, '')), '{}'),
                coalesce(array_agg(coalesce(value, '')), '{}'), coalesce(array_agg(hlc), '{}'), coalesce(array_agg(device), '{}'),
                coalesce(array_agg(seq), '{}'), coalesce(max(n), 0)
            FROM (
                SELECT tbl, pk, col, value, hlc, device, seq, dense_rank() OVER (ORDER BY tbl COLLATE "C", pk COLLATE "C") AS n
                FROM sync_changes
                WHERE account = \(account) AND seq <= \(cursor) AND (tbl COLLATE "C", pk COLLATE "C") > (\(afterTable), \(afterKey))
            ) AS changes
            WHERE n <= \(limit)
            """, logger: logger)
        for try await row in rows {
            let cells = row.makeRandomAccess()
            // The page's last row, read first: a full page's next one starts after it.
            let (tables, keys, rowCount) = (
                try PostgresBinaryArray(cells[0], of: .text), try PostgresBinaryArray(cells[1], of: .text), try cells[7].decode(Int.self)
            )
            if rowCount == limit, tables.count > 0, keys.count == tables.count {
                await nextKnown(
                    SyncSnapshotPosition(
                        table: String(decoding: tables.bytes(tables.count - 1), as: UTF8.self),
                        key: String(decoding: keys.bytes(keys.count - 1), as: UTF8.self)))
            }
            return try SnapshotChanges(
                tables: tables, keys: keys, columns: try PostgresBinaryArray(cells[2], of: .text),
                values: try PostgresBinaryArray(cells[3], of: .text), devices: try PostgresBinaryArray(cells[5], of: .text),
                clocks: try PostgresBinaryArray(cells[4], of: .int8).integers(),
                sequences: try PostgresBinaryArray(cells[6], of: .int8).integers())
        }
        throw SnapshotPageError("the snapshot query answered no row")
    }
}
