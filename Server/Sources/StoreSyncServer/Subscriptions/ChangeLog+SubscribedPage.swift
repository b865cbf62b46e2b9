import Foundation
import PostgresNIO
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// The rows a subscription covers, a page at a time, for a device that subscribes.
extension ChangeLog {
    /// Up to `limit` keys' worth of the rows `subscription` covers for `account` after
    /// `position` (of `share` only, when it is named), as the account holds them, and where the
    /// next page starts; read in one `REPEATABLE READ` snapshot with the account's latest
    /// sequence in it, from which a device holding nothing yet may pull.
    ///
    /// A page may hold fewer rows than keys it read: a row of a `rows` subscription whose
    /// column held the value once and holds another now is read, and left out.
    ///
    /// - Throws: ``SyncFailure`` `.forbidden` for a root the account may not read or a share it
    ///   is not a member of, with one message whether the root exists or not.
    func subscribedPage(
        _ subscription: SubscriptionCoverage.Resolved, share: ShareName?, account: Int64, after position: SyncSnapshotPosition?,
        limit: Int
    ) async throws -> SyncSharedPage {
        try await transaction { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            let roles = try await roles(of: account, on: connection)
            var cursor: Int64 = 0
            for try await latest in try await connection.query(
                "SELECT coalesce(max(seq), 0) FROM sync_changes WHERE account = \(account)", logger: logger
            ).decode(Int64.self) { cursor = latest }
            if let share, roles[share] == nil {
                throw SyncFailure(.forbidden, "this account is not a member of share \(share.text)")
            }
            let owners = share.map { [$0.owner] } ?? ([account] + Set(roles.keys.map(\.owner)).sorted())
            let candidates = try await candidates(
                of: subscription, owners: owners, share: share, account: account, roles: roles, after: position, limit: limit,
                on: connection)
            let coverage = SubscriptionCoverage(resolved: [subscription])
            let states = try await visibleStates(
                of: candidates.rows, account: account, roles: roles, coverage: coverage, on: connection)
            return SyncSharedPage(
                rows: states.filter { !$0.changes.isEmpty && (share == nil || $0.share == share?.text) }, next: candidates.next,
                cursor: cursor)
        }
    }

    /// The rows a page of `subscription` looks at: those of its first `limit` keys after
    /// `position`, in every one of `owners`' data that holds them, and where the next page starts.
    private func candidates(
        of subscription: SubscriptionCoverage.Resolved, owners: [Int64], share: ShareName?, account: Int64,
        roles: [ShareName: SyncShareRole], after position: SyncSnapshotPosition?, limit: Int, on connection: PostgresConnection
    ) async throws -> (rows: [OwnedRow], next: SyncSnapshotPosition?) {
        let (afterTable, afterKey) = (position?.table ?? "", position?.key ?? "")
        // Each key is in the data of one owner or a few: enough rows for `limit` keys and one more.
        let rowLimit = (limit + 1) * max(1, owners.count)
        let found: PostgresRowSequence
        switch subscription.subset.kind {
        case .ownRoots:
            guard share == nil else { return ([], nil) }
            found = try await connection.query(
                """
                SELECT owner, tbl, pk FROM sync_rows
                WHERE owner = \(account) AND root IS NOT NULL AND (tbl COLLATE "C", pk COLLATE "C") > (\(afterTable), \(afterKey))
                ORDER BY tbl COLLATE "C", pk COLLATE "C", owner LIMIT \(rowLimit)
                """, logger: logger)
        case .root:
            let root = subscription.root ?? ""
            let readers = try await readingOwners(of: root, among: owners, account: account, roles: roles, on: connection)
            guard !readers.isEmpty else {
                throw SyncFailure(.forbidden, "this account may not read root \(root)")
            }
            found = try await connection.query(
                """
                SELECT owner, tbl, pk FROM sync_rows
                WHERE owner = ANY(\(readers)::bigint[]) AND root COLLATE "C" = \(root)
                    AND (tbl COLLATE "C", pk COLLATE "C") > (\(afterTable), \(afterKey))
                ORDER BY tbl COLLATE "C", pk COLLATE "C", owner LIMIT \(rowLimit)
                """, logger: logger)
        case .rows(let table, let column):
            let value = try StoredJSON.text(of: subscription.value ?? .null, encoder: JSONEncoder())
            found = try await connection.query(
                """
                SELECT account, tbl, pk FROM sync_changes
                WHERE account = ANY(\(owners)::bigint[]) AND lower(tbl) = \(table) AND lower(col) = \(column.lowercased())
                    AND value = \(value) AND (tbl COLLATE "C", pk COLLATE "C") > (\(afterTable), \(afterKey))
                GROUP BY account, tbl, pk
                ORDER BY tbl COLLATE "C", pk COLLATE "C", account LIMIT \(rowLimit)
                """, logger: logger)
        }
        var rows: [OwnedRow] = []
        var keys = 0
        for try await (owner, table, key) in found.decode((Int64, String, String).self) {
            let row = OwnedRow(owner: owner, row: SharedRowRef(table: table, key: key))
            if rows.last?.row != row.row {
                guard keys < limit else { return (rows, rows.last.map { SyncSnapshotPosition(table: $0.row.table, key: $0.row.key) }) }
                keys += 1
            }
            rows.append(row)
        }
        return (rows, nil)
    }

    /// Those of `owners` whose data `account` may read `root` in: its own, where the root row is
    /// a root, and the owners of the shares of `root` it is a member of.
    private func readingOwners(
        of root: String, among owners: [Int64], account: Int64, roles: [ShareName: SyncShareRole],
        on connection: PostgresConnection
    ) async throws -> [Int64] {
        var readers = owners.filter { $0 != account && roles[ShareName(owner: $0, root: root)] != nil }
        if owners.contains(account), let row = SharedRowRef(rootName: root) {
            let placed = try await connection.query(
                "SELECT 1 FROM sync_rows WHERE owner = \(account) AND tbl = \(row.table) AND pk = \(row.key) AND root = \(root)",
                logger: logger)
            for try await _ in placed.decode(Int.self) { readers.append(account) }
        }
        return readers
    }
}
