import Foundation
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// Which app versions still sync with the newest: each migration after them must only add
/// synced tables and columns that rows may leave out, and keep every synced column's shape.
@Suite("Sync schema history")
struct SyncSchemaHistoryTests {
    /// Version 1 makes `lists`; `next` is version 2, on top of it.
    private static func history(_ next: String, tables: Set<String> = ["lists"]) throws -> SyncSchemaHistory {
        var migrator = Migrator()
        try migrator.add(
            Migration(version: 1, name: "lists") { db in
                try db.execute(sql: "CREATE TABLE lists(id TEXT PRIMARY KEY, name TEXT NOT NULL, color INTEGER)")
            })
        try migrator.add(Migration(version: 2, name: "next") { db in try db.execute(script: next) })
        return try SyncSchemaHistory(tables: tables, migrator: migrator)
    }

    @Test(
        "Additive migrations leave version 1 syncing, with its own columns",
        arguments: [
            "ALTER TABLE lists ADD COLUMN note TEXT",
            "ALTER TABLE lists ADD COLUMN rank INTEGER NOT NULL DEFAULT 0",
            "CREATE INDEX lists_by_name ON lists(name)",
            "CREATE TABLE local_cache(x)",
        ])
    func additive(_ migration: String) throws {
        let history = try Self.history(migration)
        #expect(history.newest.version == 2)
        let older = try #require(history.schemaSyncingWithNewest(1))
        #expect(older.columns == ["lists": ["name", "color"]])
        #expect(history.upgradeReason(forVersion: 1) == nil)
    }

    @Test("A new synced table is part of the versions after the migration that makes it")
    func newTable() throws {
        let history = try Self.history("CREATE TABLE tags(id TEXT PRIMARY KEY, label TEXT)", tables: ["lists", "tags"])
        #expect(history.schemaSyncingWithNewest(1)?.columns.keys.sorted() == ["lists"])
        #expect(history.schemaSyncingWithNewest(2)?.columns.keys.sorted() == ["lists", "tags"])
        #expect(history.schemaSyncingWithNewest(1)?.refusal(table: "tags", column: "label") != nil)
    }

    @Test("A table declared with capitals, and named with them or without, is part of every version after its migration")
    func tableNamedWithCapitals() throws {
        var migrator = Migrator()
        try migrator.add(
            Migration(version: 1, name: "folders") { db in
                try db.execute(sql: #"CREATE TABLE "Folders"("ID" TEXT PRIMARY KEY, "Title" TEXT)"#)
            })
        try migrator.add(Migration(version: 2, name: "later") { db in try db.execute(sql: "CREATE TABLE later(x)") })
        for spelled in ["Folders", "folders", "FOLDERS"] {
            let history = try SyncSchemaHistory(tables: [spelled], migrator: migrator)
            #expect(history.newest.columns == ["folders": ["Title"]], "\(spelled)")
            #expect(history.schemaSyncingWithNewest(1)?.columns == ["folders": ["Title"]], "\(spelled)")
            #expect(history.newest.refusal(table: "Folders", column: "Title") == nil, "\(spelled)")
        }
    }

    @Test(
        "Other migrations need version 1 to upgrade",
        arguments: [
            "ALTER TABLE lists ADD COLUMN rank INTEGER NOT NULL",
            "ALTER TABLE lists DROP COLUMN color",
            "ALTER TABLE lists RENAME COLUMN color TO colour",
            """
            CREATE TABLE lists_new(id TEXT PRIMARY KEY, name TEXT, color INTEGER);
            INSERT INTO lists_new SELECT * FROM lists; DROP TABLE lists; ALTER TABLE lists_new RENAME TO lists;
            """,
            """
            CREATE TABLE lists_new(id TEXT PRIMARY KEY, name TEXT NOT NULL, color TEXT);
            INSERT INTO lists_new SELECT * FROM lists; DROP TABLE lists; ALTER TABLE lists_new RENAME TO lists;
            """,
        ])
    func notAdditive(_ migration: String) throws {
        let history = try Self.history(migration)
        #expect(history.schemaSyncingWithNewest(1) == nil)
        #expect(history.upgradeReason(forVersion: 1)?.contains("upgrade the app") == true)
        #expect(history.schemaSyncingWithNewest(2) != nil)
    }

    @Test("A version newer than the newest, or one no migration reaches, cannot sync")
    func unknownVersions() throws {
        let history = try Self.history("ALTER TABLE lists ADD COLUMN note TEXT")
        #expect(history.schemaSyncingWithNewest(3) == nil && history.upgradeReason(forVersion: 3)?.contains("upgrade the server") == true)
        #expect(history.schemaSyncingWithNewest(7) == nil)
        #expect(history.schemaSyncingWithNewest(0) != nil, "before the first migration: no synced table yet, nothing to refuse")
    }
}
