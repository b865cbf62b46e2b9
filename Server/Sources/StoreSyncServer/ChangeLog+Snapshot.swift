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

    /// Up to `limit` rows after `position` (from the start when nil), each with its winning
    /// cell per column (greatest clock, then device id by bytes, then server sequence) and its
    /// latest delete, among the account's changes up to `cursor`.
    ///
    /// PostgreSQL reads the rows' changes in one ordered scan of `sync_changes_by_row` that stops
    /// after the `limit`-th row (a `dense_rank` run condition), and ``SnapshotPageWriter`` picks
    /// the winners as they stream by: a page of 5,000 rows of three cells took 80–100 ms when
    /// PostgreSQL picked them (a second index scan per row, then a sort of every cell), 40–55 ms
    /// so. It answers with one row of seven arrays, one element per change, instead of one row
    /// per change: PostgresNIO decoded 15,000 cells in 60–80 ms as rows and decodes them in
    /// 15–20 ms as arrays. The arrays follow the window's (table, key) order, which
    /// ``SnapshotPageWriter`` checks; they hold no NULL (PostgresNIO decodes none): a delete's
    /// column and value are empty strings, a name no column has (a push that sets one is refused).
    /// The answer also counts the page's rows: once PostgreSQL answered, `nextKnown` learns where
    /// a full page's next one starts, before the server writes this one.
    func snapshot(
        account: Int64, upTo cursor: Int64, after position: SyncSnapshotPosition?, limit: Int,
        nextKnown: @escaping @Sendable (SyncSnapshotPosition) async -> Void
    ) async throws -> SnapshotPageWriter {
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
    ) async throws -> SnapshotPageWriter {
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
        var writer = SnapshotPageWriter()
        for try await row in rows {
            let cells = row.makeRandomAccess()
            // The page's last row, read first: a full page's next one starts after it.
            let (tables, keys, rowCount) = (
                try cells[0].decode([String].self), try cells[1].decode([String].self), try cells[7].decode(Int.self)
            )
            if rowCount == limit, let table = tables.last, let key = keys.last {
                await nextKnown(SyncSnapshotPosition(table: table, key: key))
            }
            let (columns, values, devices) = (
                try cells[2].decode([String].self), try cells[3].decode([String].self), try cells[5].decode([String].self)
            )
            let (clocks, sequences) = (try cells[4].decode([Int64].self), try cells[6].decode([Int64].self))
            guard Set([keys.count, columns.count, values.count, clocks.count, devices.count, sequences.count]) == [tables.count] else {
                throw SnapshotPageError("the snapshot query's columns differ in length")
            }
            for index in tables.indices {
                let column = columns[index].isEmpty ? nil : columns[index]
                try writer.add(
                    table: tables[index], key: keys[index], column: column, value: column == nil ? nil : values[index],
                    stamp: SnapshotPageWriter.Stamp(hlc: clocks[index], device: devices[index], sequence: sequences[index]))
            }
        }
        return writer
    }
}
