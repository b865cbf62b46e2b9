import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// What the store keeps of sharing (see "Sharing" in <doc:SyncBetweenDevices>):
///
/// - `store_sync_rows.share`: the share a row of another account's data came through (`NULL`
///   for the store's own rows), so that a revocation finds the rows it removes;
/// - `store_sync_refused`: the changes made here that the server refused, for the app to read;
/// - `store_sync_meta` keys `share <server> <share>`: shares joined whose rows are still being
///   read, each with the position the reading reached (empty before the first page).
extension SyncStorage {
    static let sharesSchema = """
        CREATE TABLE IF NOT EXISTS store_sync_refused(
            position INTEGER PRIMARY KEY, device TEXT NOT NULL, sequence INTEGER NOT NULL, tbl TEXT NOT NULL, pk NOT NULL,
            col TEXT, reason TEXT NOT NULL, message TEXT NOT NULL);
        """

    /// Brings `store_sync_rows` of a database made before sharing up to date: the share column.
    static func upgradeRowsForSharing(in db: Database) throws {
        let hasShare = try db.fetchValue(
            Bool.self, sql: "SELECT count(*) > 0 FROM pragma_table_info('store_sync_rows') WHERE name = 'share'")
        if hasShare != true {
            try db.execute(sql: "ALTER TABLE store_sync_rows ADD COLUMN share TEXT")
        }
        try db.execute(
            script: """
                CREATE INDEX IF NOT EXISTS store_sync_rows_by_share ON store_sync_rows(share) WHERE share IS NOT NULL;
                \(sharesSchema)
                """)
    }

    /// Records that the row came through `share` (`nil`: it is the store's own).
    static func setShare(_ share: String?, of table: String, key: DatabaseValue, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO store_sync_rows(tbl, pk, share) VALUES (?, ?, ?) ON CONFLICT (tbl, pk) DO UPDATE SET share = excluded.share",
            arguments: [table, key, share.map(DatabaseValue.text) ?? .null])
    }

    /// What a row's share becomes while the share is read again from its start: the rows still
    /// tagged so once it is read whole have left it.
    static let staleSharePrefix = "stale "

    /// The shares the store holds rows of.
    static func sharesHeld(in db: Database) throws -> Set<String> {
        Set(
            try db.fetchRows(sql: "SELECT DISTINCT share FROM store_sync_rows WHERE share IS NOT NULL").compactMap { row in
                guard case .text(let share) = row[0] else { return nil }
                return share.hasPrefix(staleSharePrefix) ? String(share.dropFirst(staleSharePrefix.count)) : share
            })
    }

    /// The rows of `changes` that came through a share, each with its share.
    static func sharedRows(of changes: [SyncChange], in db: Database) throws -> [SyncSharedRow] {
        var seen: Set<SyncRowIdentity<DatabaseValue>> = []
        var shared: [SyncSharedRow] = []
        for change in changes where seen.insert(SyncRowIdentity(table: change.table, key: change.key)).inserted {
            let share = try db.fetchValue(
                String.self, sql: "SELECT share FROM store_sync_rows WHERE tbl = ? AND pk = ?", arguments: [change.table, change.key])
            if let share {
                let named = share.hasPrefix(staleSharePrefix) ? String(share.dropFirst(staleSharePrefix.count)) : share
                shared.append(SyncSharedRow(table: change.table, key: change.key.wireValue, share: named))
            }
        }
        return shared
    }

    /// The rows tagged with one of `tags` (a share, or a share being read again).
    static func rows(taggedWith tags: [String], in db: Database) throws -> [(table: String, key: DatabaseValue)] {
        try tags.flatMap { tag in
            try db.fetchRows(sql: "SELECT tbl, pk FROM store_sync_rows WHERE share = ? ORDER BY tbl, pk", arguments: [tag]).map {
                (try $0.decode(String.self, column: "tbl"), $0["pk"] ?? .null)
            }
        }
    }

    /// Forgets a row's cells, tombstone and image, keeping where it is here, and records its share.
    static func resetRow(_ table: String, key: DatabaseValue, share: String?, in db: Database) throws {
        try db.execute(sql: "DELETE FROM store_sync_cells WHERE tbl = ? AND pk = ?", arguments: [table, key])
        try db.execute(
            sql: """
                UPDATE store_sync_rows SET deleted_clock = NULL, deleted_device = NULL, image = NULL, image_clock = NULL,
                    image_device = NULL
                WHERE tbl = ? AND pk = ?
                """,
            arguments: [table, key])
        try setShare(share, of: table, key: key, in: db)
    }

    /// The changes of the row recorded here and not yet acknowledged, oldest first.
    static func pendingChanges(of table: String, key: DatabaseValue, device: String, in db: Database) throws -> [SyncChange] {
        try db.fetchRows(
            sql: "SELECT sequence, tbl, pk, col, value, clock FROM store_sync_outbox WHERE tbl = ? AND pk = ? ORDER BY sequence",
            arguments: [table, key]
        ).map { try SyncChange(stored: $0, device: device) }
    }

    // MARK: Refusals

    /// Records changes the server refused, and notes them for the streams of refusals, which
    /// get them once the transaction commits.
    static func recordRefusals(_ refusals: [SyncRefusal], in db: Database) throws {
        db.syncCoordinator?.recordedRefusals += refusals
        for refusal in refusals {
            try db.execute(
                sql: "INSERT INTO store_sync_refused(device, sequence, tbl, pk, col, reason, message) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    .text(refusal.device), .integer(refusal.sequence), .text(refusal.table), DatabaseValue(refusal.key),
                    refusal.column.map(DatabaseValue.text) ?? .null, .text(refusal.reason.rawValue), .text(refusal.message),
                ])
        }
    }

    /// The refusals recorded here, oldest first.
    static func refusals(in db: Database) throws -> [SyncRefusal] {
        try db.fetchRows(sql: "SELECT device, sequence, tbl, pk, col, reason, message FROM store_sync_refused ORDER BY position").compactMap
        {
            guard let reason = SyncRefusal.Reason(rawValue: try $0.decode(String.self, column: "reason")) else { return nil }
            return SyncRefusal(
                device: try $0.decode(String.self, column: "device"), sequence: try $0.decode(Int64.self, column: "sequence"),
                table: try $0.decode(String.self, column: "tbl"), key: ($0["pk"] ?? .null).wireValue,
                column: try $0.decode(String?.self, column: "col"), reason: reason,
                message: try $0.decode(String.self, column: "message"))
        }
    }

    // MARK: Shares being read

    private static func shareKey(_ share: String, server: String) -> String { "share \(server) \(share)" }

    /// Notes that the rows of `share` are to be read from `server`, from the start, and marks
    /// the rows held of it: those the reading does not bring again are removed once it ends.
    static func queueShareReading(_ share: String, server: String, in db: Database) throws {
        try setMeta(shareKey(share, server: server), .text(""), in: db)
        try db.execute(
            sql: "UPDATE store_sync_rows SET share = ? WHERE share = ?",
            arguments: [DatabaseValue.text(staleSharePrefix + share), DatabaseValue.text(share)])
    }

    /// The shares whose rows are being read from `server`, each with the position reached
    /// (`nil`: none yet).
    static func sharesBeingRead(from server: String, in db: Database) throws -> [(share: String, position: SyncSnapshotPosition?)] {
        let prefix = "share \(server) "
        return try db.fetchRows(
            sql: "SELECT key, value FROM store_sync_meta WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key", arguments: [prefix]
        ).compactMap { row in
            guard case .text(let key)? = row["key"], case .text(let position)? = row["value"] else { return nil }
            let share = String(key.dropFirst(prefix.count))
            guard let separator = position.firstIndex(of: "\n") else { return (share, nil) }
            return (
                share,
                SyncSnapshotPosition(table: String(position[..<separator]), key: String(position[position.index(after: separator)...]))
            )
        }
    }

    /// Records how far the rows of `share` were read (`nil`: all of them).
    static func setShareReading(_ share: String, server: String, reached position: SyncSnapshotPosition?, in db: Database) throws {
        if let position {
            try setMeta(shareKey(share, server: server), .text(position.table + "\n" + position.key), in: db)
        } else {
            try deleteMeta(shareKey(share, server: server), in: db)
        }
    }
}
