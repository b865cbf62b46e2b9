import Foundation
import PostgresNIO
import SQLiteStoreSyncProtocol

/// Pulls when accounts share data: an account's own changes, the changes of the rows of the
/// shares it is a member of, and the events that change which rows it may hold.
extension ChangeLog {
    /// A pull's changes and events, read in one snapshot of the database, in server order.
    struct SharedPulled {
        /// The changes, and for each of another account's data, the share it comes through.
        var changes: [(stored: StoredChange, share: ShareName?)] = []
        /// Rows whose root changed, as the account may hold them now; with subscriptions, every
        /// row the changes and the moves touched.
        var rows: [SyncRowState] = []
        /// The grant or revocation that ends the batch, if one does.
        var membership: (share: ShareName, granted: Bool)?
        /// The cursor after the batch.
        var cursor: Int64
        var more: Bool
    }

    /// The changes and events that `account` may see after `cursor`, up to `limit` of them,
    /// read in one `REPEATABLE READ` snapshot: the account's changes, those of the rows of its
    /// shares, the rows that moved into or out of its shares (as it may hold them now), and its
    /// grants and revocations. A grant or a revocation ends the batch, so that a device applies
    /// the changes before it first.
    ///
    /// With `coverage` (a device with subscriptions), every row the batch's changes and moves
    /// touch is in ``SharedPulled/rows`` as the device may hold it now: with the subscriptions
    /// that cover it, or none and no changes.
    ///
    /// Every write that the account pulls holds the account's lock to its commit
    /// (``storeShared(_:schemaVersion:account:sharing:)``, ``share(owner:root:memberName:role:)``),
    /// so the snapshot holds them up to some sequence, with no gap a cursor could skip.
    func sharedChanges(
        account: Int64, after cursor: Int64, limit: Int, coverage: SubscriptionCoverage? = nil
    ) async throws -> SharedPulled {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            let roles = try await roles(of: account, on: connection)
            let owners = [account] + Set(roles.keys.map(\.owner)).subtracting([account]).sorted()
            var (changes, moreChanges) = try await changes(for: account, owners: owners, after: cursor, limit: limit, on: connection)
            var (events, moreEvents) = try await events(
                for: account, owners: owners, ownMoves: coverage != nil, after: cursor, limit: limit, on: connection)
            // Both lists in server order, up to `limit` items and the first grant or revocation.
            var taken = 0
            var (changeIndex, eventIndex) = (0, 0)
            var last = cursor
            var ended = false
            while taken < limit && !ended {
                let nextChange = changeIndex < changes.count ? changes[changeIndex].stored.serverSequence : nil
                let nextEvent = eventIndex < events.count ? events[eventIndex].sequence : nil
                if let change = nextChange, nextEvent.map({ change < $0 }) ?? true {
                    last = change
                    changeIndex += 1
                } else if let event = nextEvent {
                    last = event
                    ended = events[eventIndex].kind != "row"
                    eventIndex += 1
                } else {
                    break
                }
                taken += 1
            }
            moreChanges = moreChanges || changeIndex < changes.count
            moreEvents = moreEvents || eventIndex < events.count
            changes.removeSubrange(changeIndex...)
            events.removeSubrange(eventIndex...)
            var pulled = SharedPulled(changes: changes, cursor: last, more: moreChanges || moreEvents)
            var touched = events.filter { $0.kind == "row" }.compactMap(\.row)
            if coverage != nil {
                let encoder = JSONEncoder()
                let changed = try changes.map { stored, share in
                    OwnedRow(
                        owner: share?.owner ?? account,
                        row: SharedRowRef(table: stored.change.table, key: try StoredJSON.text(of: stored.change.key, encoder: encoder)))
                }
                var seen: Set<OwnedRow> = []
                touched = (changed + touched).filter { seen.insert($0).inserted }
            }
            pulled.rows = try await visibleStates(of: touched, account: account, roles: roles, coverage: coverage, on: connection)
            if let event = events.last, event.kind != "row", let share = event.share {
                pulled.membership = (share, event.kind == "grant")
            }
            return pulled
        }
    }

    private func changes(
        for account: Int64, owners: [Int64], after cursor: Int64, limit: Int, on connection: PostgresConnection
    ) async throws -> (changes: [(stored: StoredChange, share: ShareName?)], more: Bool) {
        let rows = try await connection.query(
            """
            SELECT c.seq, c.account, c.device, c.device_seq, c.schema_version, c.tbl, c.pk, c.col, c.value, c.hlc, r.root
            FROM sync_changes c
            LEFT JOIN sync_rows r ON c.account <> \(account) AND r.owner = c.account AND r.tbl = c.tbl AND r.pk = c.pk
            WHERE c.account = ANY(\(owners)::bigint[]) AND c.seq > \(cursor)
                AND (c.account = \(account) OR EXISTS (
                    SELECT 1 FROM sync_shares s WHERE s.owner = c.account AND s.root = r.root AND s.member = \(account)))
            ORDER BY c.seq LIMIT \(limit + 1)
            """, logger: logger)
        var changes: [(stored: StoredChange, share: ShareName?)] = []
        for try await (seq, owner, device, deviceSequence, version, table, key, column, value, hlc, root) in rows.decode(
            (Int64, Int64, String, Int64, Int64, String, String, String?, String?, Int64, String?).self)
        {
            if changes.count == limit { return (changes, true) }
            let operation: SyncWireChange.Operation =
                if let column, let value { .set(column: column, value: try SyncWireValue(json: Data(value.utf8))) } else { .delete }
            let change = SyncWireChange(
                device: device, sequence: deviceSequence, table: table, key: try SyncWireValue(json: Data(key.utf8)),
                operation: operation, hlc: hlc)
            let share = owner == account ? nil : root.map { ShareName(owner: owner, root: $0) }
            changes.append((StoredChange(serverSequence: seq, schemaVersion: version, change: change), share))
        }
        return (changes, false)
    }

    /// A share event as a pull reads it.
    private struct PulledEvent {
        let sequence: Int64
        let kind: String
        let share: ShareName?
        let row: OwnedRow?
    }

    /// The account's grants and revocations, and the moves of rows into or out of its shares;
    /// with `ownMoves`, the moves of the rows of its own data too (for subscriptions by root).
    private func events(
        for account: Int64, owners: [Int64], ownMoves: Bool, after cursor: Int64, limit: Int, on connection: PostgresConnection
    ) async throws -> (events: [PulledEvent], more: Bool) {
        let rows = try await connection.query(
            """
            SELECT e.seq, e.kind, e.owner, e.root, e.tbl, e.pk FROM sync_share_events e
            WHERE e.seq > \(cursor) AND (
                (e.member = \(account) AND e.kind IN ('grant', 'revoke'))
                OR (e.kind = 'row' AND e.owner = ANY(\(owners)::bigint[]) AND e.owner <> \(account) AND EXISTS (
                    SELECT 1 FROM sync_shares s
                    WHERE s.owner = e.owner AND s.member = \(account) AND (s.root = e.old_root OR s.root = e.new_root)))
                OR (\(ownMoves) AND e.kind = 'row' AND e.owner = \(account)))
            ORDER BY e.seq LIMIT \(limit + 1)
            """, logger: logger)
        var events: [PulledEvent] = []
        for try await (seq, kind, owner, root, table, key) in rows.decode((Int64, String, Int64, String?, String?, String?).self) {
            if events.count == limit { return (events, true) }
            let row = table.flatMap { table in key.map { OwnedRow(owner: owner, row: SharedRowRef(table: table, key: $0)) } }
            events.append(PulledEvent(sequence: seq, kind: kind, share: root.map { ShareName(owner: owner, root: $0) }, row: row))
        }
        return (events, false)
    }
}
