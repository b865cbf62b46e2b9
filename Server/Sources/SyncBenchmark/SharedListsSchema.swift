import Foundation
import SQLiteStoreCore
import SyncServerHarness

/// The schema of the `sharing` part, the sharing tests' (Server/Tests/SyncServerTests/Support/
/// SharedLists.swift) with the indexes an app would give it: lists (the share roots), their
/// items (in a list, or under another item) and the items' tags.
enum SharedListsSchema {
    /// The only migration: version 1.
    static let migration = """
        CREATE TABLE lists(id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '');
        CREATE TABLE items(
            id TEXT PRIMARY KEY, list TEXT REFERENCES lists(id) ON DELETE CASCADE, parent TEXT REFERENCES items(id) ON DELETE CASCADE,
            title TEXT NOT NULL DEFAULT '');
        CREATE TABLE tags(id TEXT PRIMARY KEY, item TEXT REFERENCES items(id) ON DELETE CASCADE, label TEXT);
        CREATE INDEX items_by_list ON items(list);
        CREATE INDEX items_by_parent ON items(parent);
        CREATE INDEX items_by_title ON items(title);
        CREATE INDEX tags_by_item ON tags(item);
        """
    /// The schema version of ``migration``.
    static let schemaVersion: Int64 = 1
    /// The synced tables.
    static let tables: Set<String> = ["lists", "items", "tags"]
    /// The server options that share lists with their items and the items' tags.
    static let sharingOptions = ["--share-roots", "lists", "--share-paths", "items.list=lists,items.parent=items,tags.item=items"]

    /// How many rows of each table the database holds.
    static func counts(in db: Database) throws -> (lists: Int, items: Int, tags: Int) {
        let count = { (table: String) in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(table)") ?? 0 }
        return (try count("lists"), try count("items"), try count("tags"))
    }

    /// A random item title, which sorts at a random place among the others.
    static func randomTitle(using random: inout SplitMix64) -> String {
        "item " + String(random.next() % 100_000_000)
    }
}

/// An item of a list, as a live list of the `sharing` part shows it.
struct ListItem: StoreModel, Equatable {
    static let tableName = "items"
    var id: String
    var list: String?
    var parent: String?
    var title: String
}
