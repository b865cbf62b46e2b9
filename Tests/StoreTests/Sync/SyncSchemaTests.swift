import Foundation
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// The schema a sync server checks pushes against, read from migrations as a syncing store reads it.
@Suite("Sync schema")
struct SyncSchemaTests {
    private static func migrator() throws -> Migrator {
        var migrator = Migrator()
        try migrator.add(
            Migration(version: 1, name: "lists") { db in
                try db.execute(sql: "CREATE TABLE lists(id TEXT PRIMARY KEY, name TEXT NOT NULL, color INTEGER)")
            })
        try migrator.add(
            Migration(version: 4, name: "items") { db in
                try db.execute(
                    script: """
                        CREATE TABLE items(id BLOB PRIMARY KEY, list_id TEXT REFERENCES lists(id), title TEXT,
                            shout TEXT GENERATED ALWAYS AS (upper(title)));
                        CREATE TABLE counters(id INTEGER PRIMARY KEY, n)
                        """)
            })
        return migrator
    }

    @Test("The migrations' version and the synced columns: every one but the key and generated ones")
    func readFromMigrations() throws {
        let schema = try SyncSchema(tables: ["Lists", "items"], migrator: Self.migrator())
        #expect(schema.version == 4)
        #expect(schema.columns == ["lists": ["name", "color"], "items": ["list_id", "title"]])
    }

    @Test("A change of another table, a column the table has not, its key or a generated column is refused, by name")
    func refusals() throws {
        let schema = try SyncSchema(tables: ["lists", "items"], migrator: Self.migrator())
        #expect(schema.refusal(table: "lists", column: "name") == nil)
        #expect(schema.refusal(table: "LISTS", column: nil) == nil)
        for (table, column, named) in [
            ("counters", nil, "table \"counters\""), ("lists", "id", "column \"id\""), ("lists", "NAME", "column \"NAME\""),
            ("items", "shout", "column \"shout\""), ("items", "", "column \"\""),
        ] as [(String, String?, String)] {
            let reason = schema.refusal(table: table, column: column)
            #expect(reason?.contains(named) == true, "\(reason ?? "accepted")")
        }
    }

    @Test("A table or a column named in another normalization is refused, as every device would refuse it")
    func namesInOtherNormalization() throws {
        var migrator = Migrator()
        try migrator.add(
            Migration(version: 1, name: "cafes") { db in
                try db.execute(sql: "CREATE TABLE \"caf\u{E9}s\"(id TEXT PRIMARY KEY, \"r\u{E9}sum\u{E9}\" TEXT)")
            })
        let schema = try SyncSchema(tables: ["caf\u{E9}s"], migrator: migrator)
        #expect(schema.refusal(table: "caf\u{E9}s", column: "r\u{E9}sum\u{E9}") == nil)
        #expect(schema.refusal(table: "CAF\u{E9}S", column: nil) == nil)
        // Canonically equivalent (String's `==` finds them equal), other bytes (SQLite and a store do not).
        #expect(schema.refusal(table: "cafe\u{301}s", column: nil)?.contains("is not synced") == true)
        #expect(schema.refusal(table: "caf\u{E9}s", column: "re\u{301}sume\u{301}")?.contains("is not synced") == true)
    }

    @Test("A table that could not sync, or is missing, is refused with the error a syncing store throws")
    func unsyncableTable() throws {
        for table in ["counters", "missing"] {
            let error = #expect(throws: StoreError.self) { try SyncSchema(tables: ["lists", table], migrator: Self.migrator()) }
            #expect(error?.code == .misuse && error?.message.contains("table \"\(table)\"") == true)
        }
    }
}
