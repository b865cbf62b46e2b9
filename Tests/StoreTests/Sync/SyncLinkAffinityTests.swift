import Foundation
import TestSupport
import Testing

@testable import SQLiteStoreCore

/// A child finds its parent as SQLite's foreign keys find it, by the parent column's affinity:
/// an `INTEGER` child column stores the key "42" as the number 42, which SQLite still matches
/// with the parent's text "42".
@Suite("Sync links matched by affinity")
struct SyncLinkAffinityTests {
    static let schema = """
        CREATE TABLE p(id TEXT PRIMARY KEY, x);
        CREATE TABLE c(id TEXT PRIMARY KEY, p_id INTEGER REFERENCES p(id) ON DELETE CASCADE);
        """

    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func open(_ name: String) throws -> Store {
        let path = directory.path(name)
        try Store(path: path).write { db in try db.execute(script: Self.schema) }
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: ["p", "c"])
        return try Store(path: path, configuration: configuration)
    }

    private func children(in store: Store) throws -> [[DatabaseValue]] {
        try store.read { db in try db.fetchRows(sql: "SELECT id, p_id FROM c ORDER BY id") }.map(\.values)
    }

    @Test(
        "A child whose foreign key holds its parent's numeric-looking text key as a number appears with the parent, whichever arrives first",
        arguments: ["42", "4.5"])
    func numericChildOfTextKey(key: String) throws {
        let a = try open("a.sqlite")
        let b = try open("b.sqlite")
        let c = try open("c.sqlite")
        try a.write { db in try db.execute(sql: "INSERT INTO p VALUES (?, 1)", arguments: [key]) }
        let parent = try a.sync.pendingChanges()
        try b.sync.apply(parent)
        try b.write { db in try db.execute(sql: "INSERT INTO c VALUES ('C1', ?)", arguments: [key]) }
        let child = try b.sync.pendingChanges()
        try a.sync.apply(child)
        try c.sync.apply(child)
        try c.sync.apply(parent)
        let expected = try children(in: b)
        #expect(expected.count == 1)
        #expect(try children(in: a) == expected)
        #expect(try children(in: c) == expected)
    }

    @Test("A text key that only looks like a number in another spelling (\"042\", \"1e3\") finds no number's children")
    func noFalseNumericTwin() throws {
        let a = try open("a.sqlite")
        try a.write { db in
            try db.execute(sql: "INSERT INTO p VALUES ('42', 1)")
            try db.execute(sql: "INSERT INTO c VALUES ('C1', '42')")
        }
        try a.read { db in
            let keys = try ["042", "1e3", "42"].map { try SyncStorage.keys(of: "c", column: "p_id", equalTo: .text($0), in: db) }
            #expect(keys == [[], [], [.text("C1")]])
        }
    }
}
