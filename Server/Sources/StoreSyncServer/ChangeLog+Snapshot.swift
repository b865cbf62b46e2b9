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
    /// latest delete; and whether rows follow them.
    ///
    /// PostgreSQL reads the rows' changes in one ordered scan of `sync_changes_by_row` that stops
    /// after the `limit`-th row or before the row whose changes would pass `changeLimit` in all
    /// (run conditions on `dense_rank` and `count(*)`, which count a row's changes together), and
    /// the writer picks the winners: a page of 5,000 rows of three cells took 80–100 ms when
    /// PostgreSQL picked them (a second index scan per row, then a sort of every cell), 40–55 ms
    /// so. A row that has more than `changeLimit` changes on its own comes alone, as its winning
    /// changes, picked by PostgreSQL (``winningChanges(of:account:upTo:on:)``): a page's memory
    /// stays bounded however long the rows' history.
    ///
    /// It answers with one row of seven arrays, one element per change, instead of one row per
    /// change: PostgresNIO decoded 15,000 cells in 60–80 ms as rows and in 15–20 ms as arrays,
    /// which ``PostgresBinaryArray`` now reads as bytes. The arrays follow the window's (table,
    /// key) order, which the writer checks; they hold no NULL: a delete's column and value are
    /// empty strings, a name no column has (a push that sets one is refused). As soon as
    /// PostgreSQL answered, `nextKnown` learns where the next page starts, before the server
    /// writes this one.
    func snapshot(
        account: Int64, upTo cursor: Int64, after position: SyncSnapshotPosition?, limit: Int, changeLimit: Int,
        nextKnown: @escaping @Sendable (SyncSnapshotPosition) async -> Void
    ) async throws -> SnapshotChanges {
        try await client.withTransaction(logger: logger) { connection in
            // The page's keys must come from an ordered scan of the index that stops after them;
            // with no statistics yet (a log just filled, before autovacuum analyzes it) the
            // planner estimates a few rows and reads and sorts every key after the position
            // instead: 760 ms for the first page of 300k changes, 130 ms with the index.
            try await connection.query(
                "SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)", logger: logger)
            let page = try await changes(
                ofRowsAfter: position, limit: limit, changeLimit: changeLimit, account: account, upTo: cursor, on: connection,
                nextKnown: nextKnown)
            if page.rowCount == limit { return page.changes.followed(true) }
            // A short page: the last, or cut by the change limit before the row after it.
            guard
                let following = try await firstRow(after: page.changes.lastRow ?? position, account: account, upTo: cursor, on: connection)
            else { return page.changes.followed(false) }
            let changes =
                try await page.rowCount > 0 ? page.changes : winningChanges(of: following, account: account, upTo: cursor, on: connection)
            await nextKnown(changes.lastRow ?? following)
            return changes.followed(true)
        }
    }

    /// The columns of a snapshot answer, aggregated from a subquery `changes` in (table, key)
    /// order with the row's number `n`: seven arrays and the number of rows.
    private static let answerColumns = """
        coalesce(array_agg(tbl), '{}'), coalesce(array_agg(pk), '{}'), coalesce(array_agg(coalesce(col, '')), '{}'),
        coalesce(array_agg(coalesce(value, '')), '{}'), coalesce(array_agg(hlc), '{}'), coalesce(array_agg(device), '{}'),
        coalesce(array_agg(seq), '{}'), coalesce(max(n), 0)
        """

    /// The changes of up to `limit` rows after `position` whose changes number `changeLimit` at
    /// most, and how many rows they are; `nextKnown` learns where the last row is when they are
    /// `limit`, as soon as PostgreSQL answered.
    private func changes(
        ofRowsAfter position: SyncSnapshotPosition?, limit: Int, changeLimit: Int, account: Int64, upTo cursor: Int64,
        on connection: PostgresConnection, nextKnown: @Sendable (SyncSnapshotPosition) async -> Void
    ) async throws -> (changes: SnapshotChanges, rowCount: Int) {
        let (afterTable, afterKey) = (position?.table ?? "", position?.key ?? "")
        let rows = try await connection.query(
            """
            SELECT \(unescaped: Self.answerColumns)
            FROM (
                SELECT tbl, pk, col, value, hlc, device, seq, dense_rank() OVER w AS n, count(*) OVER w AS c
                FROM sync_changes
                WHERE account = \(account) AND seq <= \(cursor) AND (tbl COLLATE "C", pk COLLATE "C") > (\(afterTable), \(afterKey))
                WINDOW w AS (ORDER BY tbl COLLATE "C", pk COLLATE "C")
            ) AS changes
            WHERE n <= \(limit) AND c <= \(changeLimit)
            """, logger: logger)
        return try await Self.answer(rows, fullAt: limit, nextKnown: nextKnown)
    }

    /// The winning changes of one row, by the merge rule: per column (by its bytes) and for its
    /// deletes, the greatest clock, then device id by bytes, then server sequence.
    private func winningChanges(
        of row: SyncSnapshotPosition, account: Int64, upTo cursor: Int64, on connection: PostgresConnection
    ) async throws -> SnapshotChanges {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: Self.answerColumns)
            FROM (
                SELECT DISTINCT ON (coalesce(col, '') COLLATE "C") tbl, pk, col, value, hlc, device, seq, 1 AS n
                FROM sync_changes
                WHERE account = \(account) AND seq <= \(cursor) AND tbl COLLATE "C" = \(row.table) AND pk COLLATE "C" = \(row.key)
                ORDER BY coalesce(col, '') COLLATE "C", hlc DESC, device COLLATE "C" DESC, seq DESC
            ) AS changes
            """, logger: logger)
        return try await Self.answer(rows).changes
    }

    /// The first row after `position` (from the start when nil) with a change up to `cursor`.
    private func firstRow(
        after position: SyncSnapshotPosition?, account: Int64, upTo cursor: Int64, on connection: PostgresConnection
    ) async throws -> SyncSnapshotPosition? {
        let (afterTable, afterKey) = (position?.table ?? "", position?.key ?? "")
        let rows = try await connection.query(
            """
            SELECT tbl, pk FROM sync_changes
            WHERE account = \(account) AND seq <= \(cursor) AND (tbl COLLATE "C", pk COLLATE "C") > (\(afterTable), \(afterKey))
            ORDER BY tbl COLLATE "C", pk COLLATE "C" LIMIT 1
            """, logger: logger)
        for try await (table, key) in rows.decode((String, String).self) { return SyncSnapshotPosition(table: table, key: key) }
        return nil
    }

    /// The changes and the row count of an answer of ``answerColumns``. When it holds `fullAt`
    /// rows, `nextKnown` learns where the last one is first, before the other arrays are read.
    private static func answer(
        _ rows: PostgresRowSequence, fullAt limit: Int = 0, nextKnown: @Sendable (SyncSnapshotPosition) async -> Void = { _ in }
    ) async throws -> (changes: SnapshotChanges, rowCount: Int) {
        for try await row in rows {
            let cells = row.makeRandomAccess()
            let (tables, keys) = (try PostgresBinaryArray(cells[0], of: .text), try PostgresBinaryArray(cells[1], of: .text))
            let rowCount = try cells[7].decode(Int.self)
            if rowCount == limit, let last = SnapshotChanges.lastRow(tables: tables, keys: keys) { await nextKnown(last) }
            let changes = try SnapshotChanges(
                tables: tables, keys: keys,
                columns: try PostgresBinaryArray(cells[2], of: .text), values: try PostgresBinaryArray(cells[3], of: .text),
                devices: try PostgresBinaryArray(cells[5], of: .text), clocks: try PostgresBinaryArray(cells[4], of: .int8).integers(),
                sequences: try PostgresBinaryArray(cells[6], of: .int8).integers())
            return (changes, rowCount)
        }
        throw SnapshotPageError("the snapshot query answered no row")
    }
}
