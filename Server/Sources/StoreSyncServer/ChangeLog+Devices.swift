import PostgresNIO
import SQLiteStoreSyncProtocol

/// The devices the server knows (`sync_devices`, Docs/SyncServerSchema.md): when each was last
/// seen, and the highest of its changes stored, which keeps a retried push from storing a
/// change twice once compaction removed it. Devices not seen for a while are forgotten.
extension ChangeLog {
    /// Notes that `device` pulls from `cursor` (at most once a minute per device, so that long
    /// polls do not write at every request). A device the server forgot (pruned) that pulls
    /// from a cursor before the pruning is refused with `deviceForgotten`: it reads a snapshot
    /// again, keeping its own unpushed changes. It is told so even if it pushed first (which
    /// recorded it anew, after the pruning): no device met since the pruning can hold a cursor
    /// from before it otherwise, since a new device starts from a snapshot of the latest state.
    func notePull(account: Int64, device: String, cursor: Int64) async throws {
        let rows = try await client.query(
            """
            WITH known AS (
                SELECT first_seen FROM sync_devices WHERE account = \(account) AND device = \(device)
            ), forgotten AS (
                SELECT \(cursor) > 0 AND \(cursor) < pruned_through
                    AND coalesce((SELECT first_seen FROM known) >= pruned_at, true) AS forgotten
                FROM sync_accounts WHERE id = \(account)
            ), noted AS (
                INSERT INTO sync_devices(account, device)
                SELECT \(account), \(device) FROM forgotten WHERE NOT forgotten
                ON CONFLICT (account, device) DO UPDATE SET last_seen = now()
                WHERE sync_devices.last_seen < now() - interval '1 minute'
                RETURNING 1
            )
            SELECT forgotten FROM forgotten
            """, logger: logger)
        for try await forgotten in rows.decode(Bool.self) where forgotten {
            throw SyncFailure(
                .deviceForgotten,
                "device \(device) was not seen for longer than the server keeps devices, and changes it has not pulled may be "
                    + "gone: read the snapshot again (your unpushed changes are kept)")
        }
    }

    /// Forgets the devices not seen for `period`, and notes in their accounts how far the log
    /// went then (`pruned_through`): such a device that comes back is told so. Returns how
    /// many devices it forgot.
    func pruneDevices(notSeenFor period: Duration) async throws -> Int {
        let rows = try await client.query(
            """
            WITH gone AS (
                DELETE FROM sync_devices WHERE last_seen < now() - make_interval(secs => \(period.seconds)) RETURNING account
            ), accounts AS (
                UPDATE sync_accounts a
                SET pruned_through = (SELECT coalesce(max(seq), 0) FROM sync_changes WHERE account = a.id), pruned_at = now()
                WHERE a.id IN (SELECT account FROM gone)
            )
            SELECT count(*) FROM gone
            """, logger: logger)
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
    }
}
