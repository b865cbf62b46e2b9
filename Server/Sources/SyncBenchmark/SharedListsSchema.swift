import Foundation
import SQLiteStoreCore
import SyncServerHarness

/// The schema of the `sharing` part: the sharing tests' (``SharedListsSchema``) with the
/// indexes an app would give it.
extension SharedListsSchema {
    /// The only migration: version 1.
    static let migration =
        tablesSQL + """

            CREATE INDEX items_by_list ON items(list);
            CREATE INDEX items_by_parent ON items(parent);
            CREATE INDEX items_by_title ON items(title);
            CREATE INDEX tags_by_item ON tags(item);
            """
    /// The schema version of ``migration``.
    static let schemaVersion: Int64 = 1

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
