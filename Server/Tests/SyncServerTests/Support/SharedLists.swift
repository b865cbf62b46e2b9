import Foundation
import SQLiteStore
import SyncServerHarness

/// The sharing tests' schema (``SharedListsSchema``), their server that shares lists, devices
/// on the schema, and their rows as text.
enum SharedLists {
    static let schema = SharedListsSchema.tablesSQL
    static let tables = SharedListsSchema.tables
    /// The server options that share lists with their items and the items' tags.
    static let serverOptions = SharedListsSchema.sharingOptions

    /// The migrations folder that builds ``schema``, made once per cluster.
    static func migrations() throws -> URL {
        try MigrationsFolder.make("migrations-shared-lists-v2", files: ["0001_lists.sql": schema])
    }

    /// The migrations of ``migrations()`` and a second one, additive, that gives items a
    /// nullable `note`: the schema of a newer app version, made once per cluster.
    static func migrationsWithNotes() throws -> URL {
        try MigrationsFolder.make(
            "migrations-shared-lists-notes",
            files: ["0001_lists.sql": schema, "0002_item_notes.sql": "ALTER TABLE items ADD COLUMN note TEXT;"])
    }

    /// A server process on `fixture`'s database that shares lists, on the schema `migrations`
    /// build (``migrations()`` by default).
    static func server(
        _ fixture: ServerFixture, port: Int = 0, migrations: URL? = nil, options: [String] = []
    ) async throws -> SyncServerProcess {
        try await SyncServerProcess(
            database: fixture.database, port: port, migrations: try migrations ?? Self.migrations(), tables: tables,
            options: serverOptions + options)
    }

    /// `count` devices on the schema.
    static func devices(_ count: Int) throws -> SyncedStores {
        try SyncedStores(count: count, migrations: try migrations(), tables: tables)
    }

    /// A table's rows as `quote()`d text, one line each in key order (`"items with parents"`:
    /// the items with their parent column too; `"items with notes"`: and their note, on the
    /// newer schema).
    static func dump(_ store: Store, _ table: String) throws -> [String] {
        let columns =
            switch table {
            case "lists": "quote(id) || '|' || quote(title)"
            case "items": "quote(id) || '|' || quote(list) || '|' || quote(title)"
            case "items with parents": "quote(id) || '|' || quote(list) || '|' || quote(parent) || '|' || quote(title)"
            case "items with notes": "quote(id) || '|' || quote(list) || '|' || quote(parent) || '|' || quote(title) || '|' || quote(note)"
            default: "quote(id) || '|' || quote(item) || '|' || quote(label)"
            }
        return try store.read { db in
            try db.fetchRows(sql: "SELECT \(columns) FROM \(table.prefix { $0 != " " }) ORDER BY id").map { row in
                if case .text(let text) = row[0] { text } else { "\(row[0])" }
            }
        }
    }

    /// The keys of a table's rows, in order.
    static func keys(_ store: Store, _ table: String) throws -> [String] {
        try store.read { db in
            try db.fetchRows(sql: "SELECT id FROM \(table) ORDER BY id").compactMap { row in
                if case .text(let text) = row[0] { text } else { nil }
            }
        }
    }
}
