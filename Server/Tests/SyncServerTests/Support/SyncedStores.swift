import Foundation
import SQLiteStore

/// The synced model of the client tests: a string key, so that devices never collide.
struct Item: StoreModel, Equatable {
    static let tableName = "items"
    var id: String
    var title: String
    var n: Int64?
}

/// Client stores, each its own file in a temporary folder, syncing `items` and `tags`
/// (whose rows cascade with their item).
final class SyncedStores: @unchecked Sendable {
    static let schema = """
        CREATE TABLE items(id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', n INTEGER, note BLOB);
        CREATE TABLE tags(id TEXT PRIMARY KEY, item TEXT REFERENCES items(id) ON DELETE CASCADE, label TEXT);
        """
    let folder: URL
    let stores: [Store]

    init(count: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-clients-\(UUID().uuidString)")
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        stores = try (0..<count).map { index in
            let path = folder.appendingPathComponent("client-\(index).sqlite").path
            try Store(path: path).write { db in try db.execute(script: Self.schema) }
            var configuration = StoreConfiguration()
            configuration.sync = SyncConfiguration(tables: ["items", "tags"])
            return try Store(path: path, configuration: configuration)
        }
    }

    /// A table's rows as text, in key order: equal texts are equal contents (text and blobs by
    /// their bytes, through `quote()`, which also names each value's storage class).
    static func dump(_ store: Store, table: String) throws -> [String] {
        let columns =
            table == "items"
            ? "quote(id) || '|' || quote(title) || '|' || quote(n) || '|' || quote(note)"
            : "quote(id) || '|' || quote(item) || '|' || quote(label)"
        return try store.read { db in
            try db.fetchRows(sql: "SELECT \(columns) FROM \(table) ORDER BY id").map { row in
                if case .text(let text) = row[0] { text } else { "\(row[0])" }
            }
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
