import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import SyncServerHarness

/// The benchmark's database files: made in a temporary folder, migrated to ``Note``'s schema
/// (or another one migration gives), and removed with the folder.
final class BenchmarkStores {
    let folder: URL
    /// The folder holding the migration (``Note/migration`` by default), which the servers read too.
    let migrations: URL
    /// The tables the stores sync.
    let tables: Set<String>
    private var opened: [Store] = []

    /// Stores of the schema that `migration` (version 1) makes, syncing `tables`.
    init(migration: String = Note.migration, tables: Set<String> = Note.syncedTables) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-benchmark-\(UUID().uuidString)")
        migrations = folder.appendingPathComponent("migrations")
        self.tables = tables
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        try Data(migration.utf8).write(to: migrations.appendingPathComponent("0001_schema.sql"))
    }

    /// A new database file `name`, migrated, opened syncing ``tables`` when `syncs`;
    /// its notes are `notes`, inserted before sync is turned on (rows a device had before it
    /// synced), in one transaction.
    func make(_ name: String, syncs: Bool, notes: [Note] = []) throws -> Store {
        let path = folder.appendingPathComponent("\(name).sqlite").path
        let plain = try Store(path: path)
        try Migrator(folder: migrations.path).migrate(plain)
        try insert(notes, into: plain)
        try plain.close()
        return try open(path, syncs: syncs)
    }

    /// The size in bytes of database file `name`, once its store is closed (its WAL checkpointed
    /// into it and removed).
    func fileSize(of name: String) throws -> Int {
        let path = folder.appendingPathComponent("\(name).sqlite").path
        return (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Inserts `notes` in one transaction, as an app does: one model at a time.
    func insert(_ notes: [Note], into store: Store) throws {
        try store.write { db in
            for var note in notes { try db.insert(&note) }
        }
    }

    private func open(_ path: String, syncs: Bool) throws -> Store {
        var configuration = StoreConfiguration()
        if syncs { configuration.sync = SyncConfiguration(tables: tables) }
        let store = try Store(path: path, configuration: configuration)
        opened.append(store)
        return store
    }

    deinit {
        for store in opened { try? store.close() }
        try? FileManager.default.removeItem(at: folder)
    }
}
