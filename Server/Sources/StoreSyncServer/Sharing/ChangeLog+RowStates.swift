import Foundation
import PostgresNIO
import SQLiteStoreSyncProtocol

extension ChangeLog {
    /// An account's row, as a key of ``rowStates(of:)``.
    struct OwnedRow: Hashable, Sendable {
        let owner: Int64
        let row: SharedRowRef
    }

    /// The winning changes of each of `rows` by the merge rule (per column, and for its
    /// deletes: the greatest clock, then device id by bytes, then server sequence), in the data
    /// of its owner; a row with no changes is absent.
    func rowStates(of rows: [OwnedRow], on connection: PostgresConnection) async throws -> [OwnedRow: [SyncWireChange]] {
        guard !rows.isEmpty else { return [:] }
        let answer = try await connection.query(
            """
            SELECT u.o, w.device, w.device_seq, w.tbl, w.pk, w.col, w.value, w.hlc
            FROM unnest(\(rows.map(\.owner))::bigint[], \(rows.map(\.row.table))::text[], \(rows.map(\.row.key))::text[]) AS u(o, t, k)
            CROSS JOIN LATERAL (
                SELECT DISTINCT ON (coalesce(col, '') COLLATE "C") device, device_seq, tbl, pk, col, value, hlc
                FROM sync_changes
                WHERE account = u.o AND tbl COLLATE "C" = u.t AND pk COLLATE "C" = u.k
                ORDER BY coalesce(col, '') COLLATE "C", hlc DESC, device COLLATE "C" DESC, seq DESC
            ) AS w
            """, logger: logger)
        var states: [OwnedRow: [SyncWireChange]] = [:]
        for try await (owner, device, sequence, table, key, column, value, hlc) in answer.decode(
            (Int64, String, Int64, String, String, String?, String?, Int64).self)
        {
            let operation: SyncWireChange.Operation =
                if let column, let value { .set(column: column, value: try SyncWireValue(json: Data(value.utf8))) } else { .delete }
            let change = SyncWireChange(
                device: device, sequence: sequence, table: table, key: try SyncWireValue(json: Data(key.utf8)), operation: operation,
                hlc: hlc)
            states[OwnedRow(owner: owner, row: SharedRowRef(table: table, key: key)), default: []].append(change)
        }
        return states
    }

    /// The roots of those of `rows` that have one (`table:key`).
    func roots(of rows: [OwnedRow], on connection: PostgresConnection) async throws -> [OwnedRow: String] {
        guard !rows.isEmpty else { return [:] }
        let answer = try await connection.query(
            """
            SELECT r.owner, r.tbl, r.pk, r.root
            FROM unnest(\(rows.map(\.owner))::bigint[], \(rows.map(\.row.table))::text[], \(rows.map(\.row.key))::text[]) AS u(o, t, k)
            JOIN sync_rows r ON r.owner = u.o AND r.tbl = u.t AND r.pk = u.k
            WHERE r.root IS NOT NULL
            """, logger: logger)
        var roots: [OwnedRow: String] = [:]
        for try await (owner, table, key, root) in answer.decode((Int64, String, String, String).self) {
            roots[OwnedRow(owner: owner, row: SharedRowRef(table: table, key: key))] = root
        }
        return roots
    }

    /// The states of `rows` as `account` may hold them now: a row of its own data, or of a
    /// share it is a member of (by `roles`), with its winning changes and the share named; any
    /// other row with no changes, which the device removes.
    ///
    /// With `coverage`, for a device with subscriptions: a row the account may read also names
    /// the subscriptions that cover it, and has no changes when none does.
    func visibleStates(
        of rows: [OwnedRow], account: Int64, roles: [ShareName: SyncShareRole], coverage: SubscriptionCoverage? = nil,
        on connection: PostgresConnection
    ) async throws -> [SyncRowState] {
        guard !rows.isEmpty else { return [] }
        let roots = try await roots(of: rows, on: connection)
        var shares: [OwnedRow: ShareName] = [:]
        for (row, root) in roots where row.owner != account && roles[ShareName(owner: row.owner, root: root)] != nil {
            shares[row] = ShareName(owner: row.owner, root: root)
        }
        let readable = rows.filter { $0.owner == account || shares[$0] != nil }
        let states = try await rowStates(of: readable, on: connection)
        return try rows.map { row in
            let key = try SyncWireValue(json: Data(row.row.key.utf8))
            guard row.owner == account || shares[row] != nil else {
                return SyncRowState(table: row.row.table, key: key, share: nil, changes: [])
            }
            let changes = states[row] ?? []
            guard let coverage else { return SyncRowState(table: row.row.table, key: key, share: shares[row]?.text, changes: changes) }
            let covering = coverage.covering(
                account: account, owner: row.owner, table: row.row.table, root: roots[row], changes: changes)
            return SyncRowState(
                table: row.row.table, key: key, share: shares[row]?.text, changes: covering.isEmpty ? [] : changes,
                subscriptions: covering)
        }
    }

    /// ``visibleStates(of:account:roles:on:)`` on a connection of its own, with the account's
    /// roles as they are now.
    func visibleStates(of rows: [OwnedRow], account: Int64) async throws -> [SyncRowState] {
        guard !rows.isEmpty else { return [] }
        return try await client.withConnection { connection in
            try await visibleStates(of: rows, account: account, roles: try await roles(of: account, on: connection), on: connection)
        }
    }
}
