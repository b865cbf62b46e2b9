import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import TestSupport
import Testing

/// The snippets of the Sync between devices article and of the SQLiteStoreSync landing page
/// (SQLiteStoreSync.docc), verbatim: edit them together.
@Suite struct SyncArticleTests {
    @Test func snippetRuns() throws {
        let directory = try TemporaryDirectory()
        let schema = "CREATE TABLE lists(id BLOB PRIMARY KEY, name TEXT); CREATE TABLE items(id TEXT PRIMARY KEY, title TEXT);"
        let path = directory.path("a.sqlite")
        try Store(path: path).write { db in try db.execute(script: schema) }
        try Store(path: directory.path("b.sqlite")).write { db in try db.execute(script: schema) }

        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: ["lists", "items"])
        let store = try Store(path: path, configuration: configuration)
        let otherStore = try Store(path: directory.path("b.sqlite"), configuration: configuration)

        try store.write { db in
            try db.execute(sql: "INSERT INTO lists(id, name) VALUES (?, ?)", arguments: [UUID(), "Home"])
        }
        let batch = try store.sync.pendingChanges()
        try otherStore.sync.apply(batch)  // the server's job, later
        if let last = batch.lastID { try store.sync.acknowledge(upTo: last) }

        #expect(try otherStore.read { db in try db.fetchValue(String.self, sql: "SELECT name FROM lists") } == "Home")
        #expect(try store.sync.pendingChanges().changes.isEmpty)
    }
}
