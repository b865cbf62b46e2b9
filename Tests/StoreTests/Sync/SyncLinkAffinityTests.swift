import Foundation
import TestSupport
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// A child finds its parent as SQLite's foreign keys find it, by the parent column's affinity:
/// a `NUMERIC` child column stores the key "42" as the number 42, a `REAL` one "42.0" as 42.0,
/// an untyped one keeps a bound 42, and SQLite still matches each with the parent's text.
@Suite("Sync links matched by affinity")
struct SyncLinkAffinityTests {
    /// A child column's declared type, the parent's key and the value the child is given.
    struct Case: Sendable, CustomStringConvertible {
        let type: String
        let key: String
        let childValue: DatabaseValue

        var description: String { "\(type.isEmpty ? "untyped" : type) column, key \(key), child value \(childValue)" }
    }

    static let cases = [
        Case(type: "INTEGER", key: "42", childValue: .text("42")),
        Case(type: "NUMERIC", key: "4.5", childValue: .text("4.5")),
        Case(type: "REAL", key: "42.0", childValue: .text("42.0")),
        Case(type: "", key: "42", childValue: .integer(42)),
    ]

    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// A store whose child column `p_id` has `childType` and refers to `parentColumn` of `p`
    /// (its key, or `code`, a unique integer).
    private func open(_ name: String, childType: String, parentColumn: String = "id") throws -> Store {
        let path = directory.path(name)
        try Store(path: path).write { db in
            try db.execute(
                script: """
                    CREATE TABLE p(id TEXT PRIMARY KEY, x, code INTEGER UNIQUE);
                    CREATE TABLE c(id TEXT PRIMARY KEY, p_id \(childType) REFERENCES p(\(parentColumn)));
                    """)
        }
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: ["p", "c"])
        return try Store(path: path, configuration: configuration)
    }

    private func children(in store: Store) throws -> [[DatabaseValue]] {
        try store.read { db in try db.fetchRows(sql: "SELECT id, p_id, typeof(p_id) FROM c ORDER BY id") }.map(\.values)
    }

    @Test(
        "A child whose foreign key holds its parent's text key as a number appears with the parent, whichever arrives first",
        arguments: cases)
    func numericChildOfTextKey(_ testCase: Case) throws {
        let (a, b, c) = (
            try open("a.sqlite", childType: testCase.type), try open("b.sqlite", childType: testCase.type),
            try open("c.sqlite", childType: testCase.type)
        )
        try a.write { db in try db.execute(sql: "INSERT INTO p(id, x) VALUES (?, 1)", arguments: [testCase.key]) }
        let parent = try a.sync.pendingChanges()
        try b.sync.apply(parent)
        try b.write { db in try db.execute(sql: "INSERT INTO c VALUES ('C1', ?)", arguments: [testCase.childValue]) }
        let child = try b.sync.pendingChanges()
        try a.sync.apply(child)
        try c.sync.apply(child)
        try c.sync.apply(parent)
        let expected = try children(in: b)
        #expect(expected.count == 1 && expected.first?[2] != .text("text"), "the child holds a number")
        #expect(try children(in: a) == expected)
        #expect(try children(in: c) == expected)
    }

    /// Under `NO ACTION`, a parent deleted on another device takes its children here with it
    /// first; a child left behind would make the parent's delete fail, and the batch with it.
    /// SQLite's own delete does not take an untyped column's 42 for a child of "42": the merge
    /// rule removes it after its parent.
    @Test("A parent deleted on another device takes with it a child that refers to it by a number", arguments: cases)
    func removedParentTakesNumericChild(_ testCase: Case) throws {
        let (a, b) = (try open("a.sqlite", childType: testCase.type), try open("b.sqlite", childType: testCase.type))
        try a.write { db in try db.execute(sql: "INSERT INTO p(id, x) VALUES (?, 1)", arguments: [testCase.key]) }
        try SyncFixture.exchange(from: a, to: b)
        try b.write { db in try db.execute(sql: "INSERT INTO c VALUES ('C1', ?)", arguments: [testCase.childValue]) }
        try a.write { db in try db.execute(sql: "DELETE FROM p") }
        try SyncFixture.exchange(from: a, to: b)
        try SyncFixture.exchange(from: b, to: a)
        for store in [a, b] {
            #expect(try children(in: store).isEmpty)
            #expect(try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM p") } == 0)
        }
    }

    @Test("A text that spells a number another way (\"042\", \"1e3\") finds none of its children")
    func noFalseNumericTwin() throws {
        let a = try open("a.sqlite", childType: "NUMERIC")
        try a.write { db in
            try db.execute(sql: "INSERT INTO p(id, x) VALUES ('42', 1)")
            try db.execute(sql: "INSERT INTO c VALUES ('C1', '42')")
        }
        try a.read { db in
            let keys = try ["042", "1e3", "42"].map { try SyncStorage.keys(of: "c", column: "p_id", equalTo: .text($0), in: db) }
            #expect(keys == [[], [], [.text("C1")]])
        }
    }

    /// SQLite's delete of "42.0" takes a `NUMERIC` child's 42 for its child (it applies the
    /// child's affinity), its insert check for a child of "42" only: the merge removes the child
    /// with "42.0", then finds its parent "42" there and brings it back.
    @Test("A parent deleted on another device leaves the child of another parent whose key spells the same number")
    func removedParentLeavesChildOfEqualNumber() throws {
        let (a, b) = (try open("a.sqlite", childType: "NUMERIC"), try open("b.sqlite", childType: "NUMERIC"))
        try a.write { db in try db.execute(sql: "INSERT INTO p(id, x) VALUES ('42', 1), ('42.0', 2)") }
        try SyncFixture.exchange(from: a, to: b)
        try b.write { db in try db.execute(sql: "INSERT INTO c VALUES ('C1', '42')") }
        try a.write { db in try db.execute(sql: "DELETE FROM p WHERE id = '42.0'") }
        try SyncFixture.exchange(from: a, to: b)
        try SyncFixture.exchange(from: b, to: a)
        for store in [a, b] { #expect(try children(in: store) == [[.text("C1"), .integer(42), .text("integer")]]) }
    }

    /// An untyped column keeps the text "5"; SQLite's foreign key applies the parent column's
    /// `INTEGER` affinity and takes it for a reference to 5.
    @Test("A child whose untyped foreign key holds the text of a number parent column appears with the parent, whichever arrives first")
    func textChildOfNumberColumn() throws {
        let stores = try ["a", "b", "c"].map { try open("\($0).sqlite", childType: "", parentColumn: "code") }
        try stores[0].write { db in try db.execute(sql: "INSERT INTO p(id, code) VALUES ('P', 5)") }
        let parent = try stores[0].sync.pendingChanges()
        try stores[1].sync.apply(parent)
        try stores[1].write { db in try db.execute(sql: "INSERT INTO c VALUES ('C1', '5')") }
        let child = try stores[1].sync.pendingChanges()
        try stores[0].sync.apply(child)
        try stores[2].sync.apply(child)
        try stores[2].sync.apply(parent)
        for store in stores { #expect(try children(in: store) == [[.text("C1"), .text("5"), .text("text")]]) }
    }
}
