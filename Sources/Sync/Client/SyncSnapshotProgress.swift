import Foundation
import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// How far a store has read a server's snapshot: the snapshot's cursor and the position after
/// the last page applied. Kept in `store_sync_meta` per server, written in the transaction that
/// applies the page, so that the next request continues where the last applied page ended,
/// whatever failed in between (a dropped connection, a killed server or client).
struct SyncSnapshotProgress: Equatable {
    let cursor: Int64
    /// Where the next page starts; `nil` before the first page was applied.
    let position: SyncSnapshotPosition?

    private static func keys(for server: URL) -> (cursor: String, table: String, key: String) {
        let name = server.absoluteString
        let prefix = SyncStorage.snapshotKeyPrefix
        return (prefix + "cursor " + name, prefix + "table " + name, prefix + "key " + name)
    }

    /// The progress recorded for `server`, or `nil` when no snapshot is under way.
    static func load(for server: URL, in db: Database) throws -> SyncSnapshotProgress? {
        let keys = keys(for: server)
        guard case .integer(let cursor)? = try SyncStorage.meta(keys.cursor, in: db) else { return nil }
        guard case .text(let table)? = try SyncStorage.meta(keys.table, in: db),
            case .text(let key)? = try SyncStorage.meta(keys.key, in: db)
        else { return SyncSnapshotProgress(cursor: cursor, position: nil) }
        return SyncSnapshotProgress(cursor: cursor, position: SyncSnapshotPosition(table: table, key: key))
    }

    func save(for server: URL, in db: Database) throws {
        let keys = Self.keys(for: server)
        try SyncStorage.setMeta(keys.cursor, .integer(cursor), in: db)
        try SyncStorage.setMeta(keys.table, position.map { .text($0.table) } ?? .null, in: db)
        try SyncStorage.setMeta(keys.key, position.map { .text($0.key) } ?? .null, in: db)
    }

    /// Forgets the progress: the snapshot is complete, or starts again from its first page.
    static func clear(for server: URL, in db: Database) throws {
        let keys = keys(for: server)
        try db.execute(sql: "DELETE FROM store_sync_meta WHERE key IN (?, ?, ?)", arguments: [keys.cursor, keys.table, keys.key])
    }
}
