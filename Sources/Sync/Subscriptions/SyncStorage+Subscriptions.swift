import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// What the store keeps of its subscriptions (see "Subscriptions" in <doc:SyncBetweenDevices>):
///
/// - `store_sync_subscriptions`: each subscription, its priority, how far its rows were read
///   (`reading`: `NULL` once read whole, empty before the first page, else the position
///   reached) and how many rows the reading brought;
/// - `store_sync_rows.subscriptions`: the subscriptions that cover a row, each id between
///   spaces (`' 3  5 '`), empty when none does; `NULL` on a store without subscriptions;
/// - `store_sync_meta` key `subscriptions sweep`: once every subscription is read whole, the
///   rows that none covers leave the store.
extension SyncStorage {
    static let subscriptionsSchema = """
        CREATE TABLE IF NOT EXISTS store_sync_subscriptions(
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, parameter, priority INTEGER NOT NULL, reading TEXT,
            rows_read INTEGER NOT NULL DEFAULT 0);
        """

    /// Brings `store_sync_rows` of a database made before subscriptions up to date.
    static func upgradeRowsForSubscriptions(in db: Database) throws {
        let hasColumn = try db.fetchValue(
            Bool.self, sql: "SELECT count(*) > 0 FROM pragma_table_info('store_sync_rows') WHERE name = 'subscriptions'")
        if hasColumn != true {
            try db.execute(sql: "ALTER TABLE store_sync_rows ADD COLUMN subscriptions TEXT")
        }
        try db.execute(script: subscriptionsSchema)
    }

    private static let sweepKey = "subscriptions sweep"

    /// The store's subscriptions, highest priority first.
    static func subscriptions(in db: Database) throws -> [StoreSync.Subscription] {
        try db.fetchRows(
            sql:
                "SELECT id, name, parameter, priority, reading IS NULL AS complete, rows_read FROM store_sync_subscriptions ORDER BY priority DESC, id"
        ).map { row in
            StoreSync.Subscription(
                id: try row.decode(Int64.self, column: "id"), name: try row.decode(String.self, column: "name"),
                parameter: row["parameter"].flatMap { $0 == .null ? nil : $0 }, priority: try row.decode(Int.self, column: "priority"),
                rowsRead: try row.decode(Int.self, column: "rows_read"), isComplete: try row.decode(Bool.self, column: "complete"))
        }
    }

    /// The store's subscriptions as its pulls send them.
    static func wireSubscriptions(in db: Database) throws -> [SyncSubscription] {
        try subscriptions(in: db).map { SyncSubscription(id: $0.id, name: $0.name, parameter: $0.parameter?.wireValue) }
    }

    /// The subscriptions whose rows are still to be read, highest priority first, each with the
    /// position reached (`nil`: none yet).
    static func subscriptionsBeingRead(in db: Database) throws -> [(subscription: SyncSubscription, position: SyncSnapshotPosition?)] {
        try db.fetchRows(
            sql: "SELECT id, name, parameter, reading FROM store_sync_subscriptions WHERE reading IS NOT NULL ORDER BY priority DESC, id"
        ).map { row in
            let subscription = SyncSubscription(
                id: try row.decode(Int64.self, column: "id"), name: try row.decode(String.self, column: "name"),
                parameter: row["parameter"].flatMap { $0 == .null ? nil : $0.wireValue })
            guard case .text(let position)? = row["reading"], let separator = position.firstIndex(of: "\n") else {
                return (subscription, nil)
            }
            return (
                subscription,
                SyncSnapshotPosition(table: String(position[..<separator]), key: String(position[position.index(after: separator)...]))
            )
        }
    }

    /// Records how far the rows of subscription `id` were read (`nil`: all of them), and that
    /// `rows` more were read.
    static func setSubscriptionReading(_ id: Int64, reached position: SyncSnapshotPosition?, rows: Int, in db: Database) throws {
        try db.execute(
            sql: "UPDATE store_sync_subscriptions SET reading = ?, rows_read = rows_read + ? WHERE id = ?",
            arguments: [position.map { DatabaseValue.text($0.table + "\n" + $0.key) } ?? DatabaseValue.null, Int64(rows), id])
    }

    /// Notes that every subscription is to be read again from its start; with `sweeping`, marks
    /// every row covered by none until a reading brings it again, and notes that the rows still
    /// covered by none once all are read leave the store.
    static func readSubscriptionsAgain(sweeping: Bool, in db: Database) throws {
        try db.execute(sql: "UPDATE store_sync_subscriptions SET reading = '', rows_read = 0")
        guard sweeping else { return }
        try db.execute(sql: "UPDATE store_sync_rows SET subscriptions = ''")
        try setMeta(sweepKey, .integer(1), in: db)
    }

    /// Whether the rows covered by no subscription are to leave the store once all are read.
    static func isSweepPending(in db: Database) throws -> Bool { try meta(sweepKey, in: db) != nil }

    static func clearSweep(in db: Database) throws { try deleteMeta(sweepKey, in: db) }

    /// Records the subscriptions that cover a row (`nil`: the store has none).
    static func setCoverage(_ ids: [Int64]?, of table: String, key: DatabaseValue, in db: Database) throws {
        let text = ids.map { $0.map { " \($0) " }.joined() }
        try db.execute(
            sql: """
                INSERT INTO store_sync_rows(tbl, pk, subscriptions) VALUES (?, ?, ?)
                ON CONFLICT (tbl, pk) DO UPDATE SET subscriptions = excluded.subscriptions
                """,
            arguments: [.text(table), key, text.map(DatabaseValue.text) ?? .null])
    }

    /// Records that subscription `id` covers a row.
    static func addCoverage(_ id: Int64, of table: String, key: DatabaseValue, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO store_sync_rows(tbl, pk, subscriptions) VALUES (?1, ?2, ?3)
                ON CONFLICT (tbl, pk) DO UPDATE SET subscriptions = coalesce(subscriptions, '') || ?3
                WHERE instr(coalesce(subscriptions, ''), ?3) = 0
                """,
            arguments: [.text(table), key, .text(" \(id) ")])
    }

    /// Forgets the subscriptions of every row: the store has none left.
    static func forgetCoverage(in db: Database) throws {
        try db.execute(sql: "UPDATE store_sync_rows SET subscriptions = NULL WHERE subscriptions IS NOT NULL")
        try clearSweep(in: db)
    }
}
