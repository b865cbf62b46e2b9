import Foundation
import SQLiteStore
@_spi(Testing) import SQLiteStoreSync
import SyncServerHarness

/// The synced model of the client tests: a string key, so that devices never collide.
struct Item: StoreModel, Equatable {
    static let tableName = "items"
    var id: String
    var title: String
    var n: Int64?
}

/// Client stores, each its own file in a temporary folder, migrated to the schema of
/// ``migrations(version:)`` and syncing `items`, `tags` (whose rows cascade with their item) and
/// `notes` (each may have a parent note, itself included, and follows its parent's delete).
final class SyncedStores: @unchecked Sendable {
    static let schema = """
        CREATE TABLE items(id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', n INTEGER, note BLOB);
        CREATE TABLE tags(id TEXT PRIMARY KEY, item TEXT REFERENCES items(id) ON DELETE CASCADE, label TEXT);
        CREATE TABLE notes(id TEXT PRIMARY KEY, parent TEXT REFERENCES notes(id) ON DELETE CASCADE, body TEXT);
        """
    /// The tables the stores and the servers of the tests sync.
    static let tables: Set<String> = ["items", "tags", "notes"]
    let folder: URL
    private(set) var stores: [Store]
    /// The tables the stores sync, from their next ``open(_:)``.
    var tables: Set<String>

    /// `count` stores migrated with the migrations in `migrations` (``migrations(version:)`` when nil),
    /// syncing `tables`.
    init(count: Int, migrations: URL? = nil, tables: Set<String> = SyncedStores.tables) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-clients-\(UUID().uuidString)")
        self.folder = folder
        self.tables = tables
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        stores = []
        for _ in 0..<count { try add(migrations: migrations) }
    }

    /// A new store that joins later: its own file, migrated like the others; returns its index.
    @discardableResult
    func add(migrations: URL? = nil) throws -> Int {
        let index = stores.count
        let plain = try Store(path: path(index))
        try Migrator(folder: (try migrations ?? Self.migrations(version: 1)).path).migrate(plain)
        try plain.close()
        stores.append(try open(index))
        return index
    }

    /// Whether `store` has read part of a server's snapshot and not its last page yet.
    static func isReadingSnapshot(_ store: Store) async throws -> Bool {
        try await store.read { db in
            try db.fetchValue(Bool.self, sql: "SELECT count(*) > 0 FROM store_sync_meta WHERE key LIKE 'snapshot cursor %'") ?? false
        }
    }

    /// Whether `store` has a pull cursor: its snapshot, if it read one, is complete.
    static func hasCursor(_ store: Store) async throws -> Bool {
        try await store.read { db in
            try db.fetchValue(Bool.self, sql: "SELECT count(*) > 0 FROM store_sync_meta WHERE key LIKE 'cursor %'") ?? false
        }
    }

    /// The sequence of the last change the store's device recorded (0: none).
    static func changesMade(by store: Store) async throws -> Int64 {
        try await store.read { db in
            try db.fetchValue(Int64.self, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'store_sync_outbox'") ?? 0
        }
    }

    /// The file of store `index`.
    func path(_ index: Int) -> String { folder.appendingPathComponent("client-\(index).sqlite").path }

    /// Opens store `index`'s file again, syncing the tables.
    func open(_ index: Int) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: tables)
        return try Store(path: path(index), configuration: configuration)
    }

    /// A new store on a copy of store `index`'s file (a restored backup, a file copied to another
    /// machine), with its device id, rows and outbox; returns its index.
    @discardableResult
    func addCopy(of index: Int) async throws -> Int {
        let copy = stores.count
        try await reopen(index) { try FileManager.default.copyItem(atPath: path(index), toPath: path(copy)) }
        stores.append(try open(copy))
        return copy
    }

    /// Closes store `index`, lets `body` work on its file (another process), and opens it again.
    func reopen(_ index: Int, around body: () async throws -> Void = {}) async throws {
        try stores[index].close()
        try await body()
        stores[index] = try open(index)
    }

    /// A folder of migrations that builds ``schema`` (version 1) and then, for a `version`
    /// above 1, one more migration numbered `version`; made once per version, removed with the cluster.
    static func migrations(version: Int = 1) throws -> URL {
        let folder = try PostgresCluster.shared.get().folder.appendingPathComponent("migrations-v\(version)")
        guard !FileManager.default.fileExists(atPath: folder.path) else { return folder }
        // Written aside and renamed into place, so that a suite running beside never reads half of it.
        let draft = folder.deletingLastPathComponent().appendingPathComponent("draft-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: draft, withIntermediateDirectories: true)
        try Data(schema.utf8).write(to: draft.appendingPathComponent("0001_items_and_tags.sql"))
        if version > 1 {
            try Data("CREATE TABLE later(x);".utf8).write(to: draft.appendingPathComponent(String(format: "%04d_later.sql", version)))
        }
        if (try? FileManager.default.moveItem(at: draft, to: folder)) == nil { try? FileManager.default.removeItem(at: draft) }
        return folder
    }

    /// A table's rows as text, in key order, through `quote()`, which names each value's
    /// storage class: dumps whose UTF-8 bytes are equal are equal contents (String's `==`
    /// would also find canonically equivalent texts, "\u{E9}" and "e\u{301}", equal).
    static func dump(_ store: Store, table: String) throws -> [String] {
        let columns =
            switch table {
            case "items": "quote(id) || '|' || quote(title) || '|' || quote(n) || '|' || quote(note)"
            case "notes": "quote(id) || '|' || quote(parent) || '|' || quote(body)"
            default: "quote(id) || '|' || quote(item) || '|' || quote(label)"
            }
        return try store.read { db in
            try db.fetchRows(sql: "SELECT \(columns) FROM \(table) ORDER BY id").map { row in
                if case .text(let text) = row[0] { text } else { "\(row[0])" }
            }
        }
    }

    /// `store`'s sync state: each cell and delete with its stamp, one line each in order, the
    /// rows kept whole written out into cells first. Devices that have seen the same changes
    /// hold the same.
    static func syncState(_ store: Store) throws -> [String] {
        try store.sync.expandRowImages()
        return try store.read { db in
            try db.fetchRows(
                sql: """
                    SELECT tbl || '|' || quote(pk) || '|' || col || '|' || quote(value) || '|' || clock || '|' || device
                    FROM store_sync_cells
                    UNION ALL
                    SELECT tbl || '|' || quote(pk) || '|deleted|' || deleted_clock || '|' || deleted_device
                    FROM store_sync_rows WHERE deleted_clock IS NOT NULL
                    ORDER BY 1
                    """
            ).map { row in if case .text(let text) = row[0] { text } else { "\(row[0])" } }
        }
    }

    /// The devices whose cells and deletes `store` holds: its own, and those whose changes it received.
    static func devices(in store: Store) throws -> Set<String> {
        try store.sync.expandRowImages()
        return try store.read { db in
            Set(
                try db.fetchRows(
                    sql: """
                        SELECT device FROM store_sync_cells
                        UNION SELECT deleted_device FROM store_sync_rows WHERE deleted_device IS NOT NULL
                        """
                ).map { row in if case .text(let text) = row[0] { text } else { "\(row[0])" } })
        }
    }

    /// A dump's rows as their UTF-8 bytes, to compare byte for byte.
    static func bytes(_ dump: [String]) -> [[UInt8]] { dump.map { Array($0.utf8) } }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
