import Foundation
import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// The writer connection's sync: sets the sync tables up at open, checks the synced tables,
/// records each local transaction before it commits (the store's ``CommitParticipant``) and
/// applies remote batches.
final class SyncCoordinator: CommitParticipant {
    let clock: HybridClock
    /// The refusals recorded in the open write transaction (``SyncClient/applying(_:)``).
    var recordedRefusals: [SyncRefusal] = []
    /// Set by an ended subscription's first transaction (``SyncShareApplier/evictSubscription(_:)``):
    /// the rows it deleted, still listed as leaving when it commits, are forgotten by the next
    /// transaction, not by this commit. Its commit takes it back.
    var forgetsEvictedRowsNext = false
    private let tableNames: Set<String>
    private var tables: [String: SyncedTable] = [:]
    private var tablesGeneration: Int64 = -1

    /// Creates the sync tables when missing, the device id on first open, and checks every synced table.
    init(configuration: SyncConfiguration, database db: Database) throws {
        tableNames = Self.tableNames(of: configuration)
        clock = HybridClock(physicalClock: configuration.physicalClock)
        try db.begin(.immediate)
        do {
            try db.execute(script: SyncStorage.schema)
            try db.execute(sql: SyncStorage.leavingSchema)
            try SyncStorage.upgradeCells(in: db)
            try SyncStorage.upgradeRows(in: db)
            try SyncStorage.upgradeRowsForSharing(in: db)
            try SyncStorage.upgradeRowsForSubscriptions(in: db)
            if try SyncStorage.deviceID(in: db) == nil { try SyncStorage.setMeta("device", .text(Self.newDeviceID()), in: db) }
            tables = try Self.load(tableNames, from: db)
            try SyncStorage.markLinks(of: tables, in: db)
            try SyncShareApplier(tables: tables, db: db, clock: clock).finishInterruptedEviction()
            try db.commit()
        } catch {
            db.rollback()
            throw error
        }
    }

    /// The synced tables, read again from the schema when it may have changed.
    func syncedTables(in db: Database) throws -> [String: SyncedTable] {
        let generation = try db.changeCapture?.currentFactsGeneration() ?? 0
        if generation != tablesGeneration {
            tables = try Self.load(tableNames, from: db)
            try SyncStorage.markLinks(of: tables, in: db)
            tablesGeneration = generation
        }
        return tables
    }

    /// The tables `configuration` syncs, read and checked on any connection to the store: on
    /// the writer ``syncedTables(in:)`` keeps them; a reader's serve to stage work ahead of a
    /// write transaction that checks them again.
    static func syncedTables(of configuration: SyncConfiguration, in db: Database) throws -> [String: SyncedTable] {
        try load(tableNames(of: configuration), from: db)
    }

    /// The names of the tables `configuration` syncs, as SQLite names them (ASCII letters folded).
    private static func tableNames(of configuration: SyncConfiguration) -> Set<String> {
        Set(configuration.tables.map(\.sqliteIdentifierFolded))
    }

    private static func load(_ names: Set<String>, from db: Database) throws -> [String: SyncedTable] {
        try Dictionary(uniqueKeysWithValues: names.sorted().map { ($0, try SyncedTable.load($0, from: db)) })
    }

    /// Called inside a write transaction, after its work and just before `COMMIT`.
    func transactionWillCommit(_ changes: StoreChanges, in db: Database) throws {
        let tables = try syncedTables(in: db)
        let evicting = forgetsEvictedRowsNext
        forgetsEvictedRowsNext = false
        if db.isApplyingRemoteChanges { return try forgetRowsDeletedByCascade(changes, tables: tables, evicting: evicting, in: db) }
        guard let device = try SyncStorage.deviceID(in: db) else { throw StoreError.misuse("sync: the device id is gone") }
        var recorder = SyncRecorder(tables: tables, db: db, device: device, clock: clock)
        try recorder.record(changes)
    }

    /// Gives the database a new device id in the open write transaction (see
    /// ``StoreSync/takeNewDeviceID()``); returns it.
    func takeNewDeviceID(in db: Database) throws -> String {
        guard let device = try SyncStorage.deviceID(in: db) else { throw StoreError.misuse("sync: the device id is gone") }
        let newDevice = Self.newDeviceID()
        try SyncStorage.restampPendingChanges(from: device, to: newDevice, in: db)
        try SyncStorage.forgetServerProgress(in: db)
        try SyncStorage.setMeta("device", .text(newDevice), in: db)
        return newDevice
    }

    private static func newDeviceID() -> String { UUID().uuidString.lowercased() }

    /// Applies a remote batch in the open write transaction.
    func apply(_ batch: SyncBatch, in db: Database) throws {
        db.isApplyingRemoteChanges = true
        try SyncApplier(tables: try syncedTables(in: db), db: db, clock: clock).apply(batch)
    }

    /// Applies a snapshot page in the open write transaction, with `stagedAhead`, its staging
    /// made off the writer, when that was staged for the tables synced now. A page that cannot
    /// be applied whole (a table or column not synced here, a row that breaks a constraint) is
    /// applied as a batch of its cells and deletes, which holds what cannot be applied
    /// (``SyncHeldChange``) and applies the rest: no page stops a new device's first sync.
    func apply(_ page: SyncSnapshotPage, stagedAhead: SyncSnapshotStaging? = nil, in db: Database) throws {
        db.isApplyingRemoteChanges = true
        let tables = try syncedTables(in: db)
        do {
            try db.transaction { try SyncSnapshotApplier(tables: tables, db: db, clock: clock).apply(page, stagedAhead: stagedAhead) }
        } catch let error as StoreError where error.isAboutRemoteData {
            try SyncApplier(tables: tables, db: db, clock: clock).apply(SyncBatch(page))
        }
    }

    /// Rows that SQLite deleted while a batch was applied (foreign key actions, triggers) are
    /// no longer at their rowids.
    /// One statement a table, not two a row: a share's revocation or an ended subscription
    /// deletes a hundred thousand rows. With `evicting`, the rows an ended subscription deleted
    /// itself are passed over: the next transaction forgets them whole.
    private func forgetRowsDeletedByCascade(
        _ changes: StoreChanges, tables: [String: SyncedTable], evicting: Bool, in db: Database
    ) throws {
        for table in tables.values where changes.touches(table.name) {
            var deleted = changes.changes(in: table.name).deleted
            if evicting { deleted.subtract(try SyncStorage.leavingRowIDs(of: table.name, in: db)) }
            guard !deleted.isEmpty else { continue }
            try db.execute(
                sql: """
                    UPDATE store_sync_rows SET rid = NULL
                    WHERE tbl = ?1 AND rid IN (SELECT value FROM json_each(?2))
                        AND NOT EXISTS (SELECT 1 FROM \(SQLIdentifier.quote(table.name)) AS t WHERE t.rowid = store_sync_rows.rid)
                    """,
                arguments: [DatabaseValue.text(table.name), try BoundKeys(deleted.sorted().map { .integer($0) }).argument])
        }
    }
}

extension Database {
    /// The sync of a store's writer connection, when the store syncs.
    var syncCoordinator: SyncCoordinator? { commitParticipant as? SyncCoordinator }
}
