import Foundation
import TestSupport
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// What the SyncBetweenDevices article says of constraints no merge resolves: the changes of a
/// row that breaks a `UNIQUE` or multi-column `CHECK` constraint are held, the rest of their
/// batch applied, and apply with a later batch once a local write has removed the conflict.
@Suite("Sync constraint conflicts")
struct SyncConstraintConflictTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func open(_ name: String, schema: String) throws -> Store {
        let path = directory.path("\(name).sqlite")
        try Store(path: path).write { db in try db.execute(script: schema) }
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: ["t"])
        return try Store(path: path, configuration: configuration)
    }

    private func rows(_ store: Store) throws -> [[DatabaseValue]] {
        try store.read { db in try db.fetchRows(sql: "SELECT * FROM t ORDER BY id") }.map(\.values)
    }

    @Test("Two rows with one unique value: the other device's row is held, the rest applied, until the device renames its own")
    func uniqueConflict() throws {
        let schema = "CREATE TABLE t(id TEXT PRIMARY KEY, name TEXT UNIQUE)"
        let (a, b) = (try open("a", schema: schema), try open("b", schema: schema))
        try a.write { db in try db.execute(sql: "INSERT INTO t VALUES ('a1', 'x'), ('a2', 'other')") }
        try b.write { db in try db.execute(sql: "INSERT INTO t VALUES ('b1', 'x')") }
        let batch = try a.sync.pendingChanges()
        try b.sync.apply(batch)
        #expect(try rows(b) == [[.text("a2"), .text("other")], [.text("b1"), .text("x")]])
        let held = try b.sync.heldChanges()
        #expect(held.map(\.change.key) == [.text("a1")])
        #expect(held.first?.error.code == .constraint)
        try b.write { db in try db.execute(sql: "UPDATE t SET name = 'y' WHERE id = 'b1'") }
        try b.sync.apply(SyncBatch(schemaVersion: 0, changes: []))
        #expect(try b.sync.heldChanges().isEmpty)
        try SyncFixture.exchange(from: b, to: a)
        #expect(try rows(a) == rows(b))
        #expect(try rows(b).count == 3)
    }

    @Test("Two edits that only together break a CHECK: held, the row as it was, until a later local edit makes the merged row valid")
    func checkConflict() throws {
        let schema = "CREATE TABLE t(id TEXT PRIMARY KEY, lo INTEGER NOT NULL, hi INTEGER NOT NULL, CHECK (lo <= hi))"
        let (a, b) = (try open("a", schema: schema), try open("b", schema: schema))
        try a.write { db in try db.execute(sql: "INSERT INTO t VALUES ('r', 0, 10)") }
        try SyncFixture.exchange(from: a, to: b)
        try a.write { db in try db.execute(sql: "UPDATE t SET lo = 8") }
        try b.write { db in try db.execute(sql: "UPDATE t SET hi = 5") }
        let batch = try a.sync.pendingChanges()
        try b.sync.apply(batch)
        #expect(try rows(b) == [[.text("r"), .integer(0), .integer(5)]])
        #expect(try b.sync.heldChanges().map(\.change) == batch.changes)
        try b.write { db in try db.execute(sql: "UPDATE t SET hi = 9") }
        try b.sync.apply(SyncBatch(schemaVersion: 0, changes: []))
        #expect(try b.sync.heldChanges().isEmpty)
        try a.sync.acknowledge(upTo: try #require(batch.lastID))
        try SyncFixture.exchange(from: b, to: a)
        #expect(try rows(a) == [[.text("r"), .integer(8), .integer(9)]])
        #expect(try rows(b) == rows(a))
    }
}
