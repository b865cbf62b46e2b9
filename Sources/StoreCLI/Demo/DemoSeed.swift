import SQLiteStoreCore

/// The demo's starting data and its scripted edits.
enum DemoSeed {
    /// The list and its items' ids by title.
    struct Planted: Sendable {
        let listID: Int64
        let ids: [String: Int64]
    }

    /// Empties the list called Demo (creating it if needed) and fills it again, in one transaction.
    static func plant(in store: Store) async throws -> Planted {
        try await store.write { db in
            let existing = try db.fetchValue(Int64.self, sql: "SELECT id FROM list WHERE name = 'Demo'")
            let listID: Int64
            if let existing {
                listID = existing
            } else {
                try db.execute(sql: "INSERT INTO list (name) VALUES ('Demo')")
                listID = db.lastInsertedRowID
            }
            try db.execute(sql: "DELETE FROM item WHERE list_id = ?", arguments: [listID])
            var ids: [String: Int64] = [:]
            for (title, category, position, due) in items {
                try db.execute(
                    sql: "INSERT INTO item (list_id, title, category, position, due_date) VALUES (?, ?, ?, ?, ?)",
                    arguments: [listID, title, category, position, due])
                ids[title] = db.lastInsertedRowID
            }
            return Planted(listID: listID, ids: ids)
        }
    }

    /// Replaces the list called Errands (or Chores, its name after a previous run's rename)
    /// with a fresh one of two items, in one transaction; its items go with it (`ON DELETE CASCADE`).
    static func plantErrands(in store: Store) async throws -> Planted {
        try await store.write { db in
            try db.execute(sql: "DELETE FROM list WHERE name IN ('Errands', 'Chores')")
            try db.execute(sql: "INSERT INTO list (name) VALUES ('Errands')")
            let listID = db.lastInsertedRowID
            var ids: [String: Int64] = [:]
            for (position, title) in ["Stamps", "Parcel"].enumerated() {
                try db.execute(
                    sql: "INSERT INTO item (list_id, title, category, position) VALUES (?, ?, 'post', ?)",
                    arguments: [listID, title, position + 1])
                ids[title] = db.lastInsertedRowID
            }
            return Planted(listID: listID, ids: ids)
        }
    }

    private static let items: [(String, String, Int, String?)] = [
        ("Milk", "groceries", 1, "2026-01-02"), ("Bread", "groceries", 2, nil),
        ("Report", "work", 1, "2026-02-01"), ("Slides", "work", 2, nil), ("Call the plumber", "home", 1, nil),
    ]

    /// The scripted session: inserts, an update of the followed item, moves within and across
    /// sections, a new section, deletes, and finally the followed item's deletion.
    static func script(ids: [String: Int64]) -> [DemoEdit] {
        let id = { (title: String) in ids[title] ?? 0 }
        return [
            .add(title: "Eggs", category: "groceries"),
            .complete(id: id("Milk")),
            .rename(id: id("Milk"), title: "Oat milk"),
            .move(id: id("Report"), category: "home", position: nil),
            .add(title: "Taxes", category: "admin"),
            .move(id: id("Bread"), category: "groceries", position: 0),
            .delete(id: id("Bread")),
            .delete(id: id("Call the plumber")),
            .delete(id: id("Milk")),
        ]
    }
}
