// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import SQLiteStoreCore

/// A temporary project folder with a `Migrations` folder (a copy of some of the repository's
/// example migrations) in which the tests run `store` with its default paths.
final class CLIProject {
    let folder: URL

    /// The repository's example migrations.
    static let examplesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Migrations")

    /// A project with the example migrations up to version `last` (none for 0), plus `extra` files.
    init(examplesUpTo last: Int = 4, extra: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("StoreCLITests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: migrationsFolder, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.examplesFolder.path)
        where (Int(name.prefix(4)) ?? .max) <= last {
            try FileManager.default.copyItem(
                at: Self.examplesFolder.appendingPathComponent(name),
                to: migrationsFolder.appendingPathComponent(name))
        }
        for (name, text) in extra { try write(name, text) }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    var migrationsFolder: URL { folder.appendingPathComponent("Migrations") }
    var databasePath: String { folder.appendingPathComponent("store.sqlite").path }

    /// Runs `store arguments…` in the project folder and waits for it.
    @discardableResult
    func store(_ arguments: String...) async throws -> StoreResult {
        try await StoreBinary.start(arguments, in: folder).finish()
    }

    /// Starts `store arguments…` without waiting.
    func start(_ arguments: String...) throws -> RunningStore {
        try StoreBinary.start(arguments, in: folder)
    }

    /// Writes a migration file.
    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: migrationsFolder.appendingPathComponent(name))
    }

    /// The text of a migration file.
    func read(_ name: String) throws -> String {
        try String(contentsOf: migrationsFolder.appendingPathComponent(name), encoding: .utf8)
    }

    /// Runs `script` on the database through the library.
    func execute(_ script: String, database: String? = nil) throws {
        let store = try Store(path: database ?? databasePath)
        try store.write { db in try db.execute(script: script) }
    }

    /// The schema, every row of every table and the ledger's versions and checksums.
    func snapshot() throws -> [String] {
        try Store(path: databasePath).read { db in
            try db.schema().flatMap { object -> [String] in
                guard object.type == "table" else { return [object.sql] }
                return [object.sql] + (try db.fetchRows(sql: "SELECT * FROM \"\(object.name)\" ORDER BY rowid").map(\.description))
            } + db.fetchRows(sql: "SELECT version, checksum FROM store_migrations ORDER BY version").map(\.description)
        }
    }

    /// A value from the database.
    func value(_ sql: String) throws -> Int? {
        try Store(path: databasePath).read { db in try db.fetchValue(Int.self, sql: sql) }
    }

    /// Lists and items for the example schema at version 2 or later.
    func insertListsAndItems() throws {
        try execute(
            """
            INSERT INTO list (id, name) VALUES (1, 'Home'), (2, 'Work');
            INSERT INTO item (list_id, title, category, position, due_date, done) VALUES
                (1, 'Milk', 'groceries', 1, '2026-01-02', 0),
                (1, 'Bread', 'groceries', 2, NULL, 1),
                (2, 'Report', 'writing', 1, '2026-02-01', 0);
            """)
    }
}
#endif
