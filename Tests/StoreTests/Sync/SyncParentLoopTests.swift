import Foundation
import TestSupport
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// Rows that are their own parent, or each other's (a parent loop of one, two or three notes),
/// under every delete rule: they reach other devices as they are on the device that made them,
/// whatever order their changes arrive in, and a delete inside a loop is applied, by its rule,
/// without recursing without end; the device then goes on syncing.
@Suite("Sync of parent loops")
struct SyncParentLoopTests {
    static let rules = ["ON DELETE CASCADE", "ON DELETE SET NULL", "ON DELETE RESTRICT", ""]

    @Test("A note inserted as its own parent, or updated to be, reaches the other device", arguments: rules)
    func selfParent(under rule: String) throws {
        let d = try LoopDevices(rule: rule)
        try d.a.write { db in try db.execute(sql: "INSERT INTO notes(id, parent_id, title) VALUES ('p', 'p', 'inserted')") }
        try SyncFixture.exchange(from: d.a, to: d.b)
        #expect(try d.notes(d.b)["p"]?["parent_id"] == .text("p"))
        try d.a.write { db in try db.execute(sql: "INSERT INTO notes(id, parent_id, title) VALUES ('r', NULL, 'updated')") }
        try SyncFixture.exchange(from: d.a, to: d.b)
        try d.a.write { db in try db.execute(sql: "UPDATE notes SET parent_id = 'r' WHERE id = 'r'") }
        try SyncFixture.exchange(from: d.a, to: d.b)
        #expect(try d.notes(d.b)["r"]?["parent_id"] == .text("r"))
        #expect(try d.contents(d.b) == d.contents(d.a))
    }

    @Test(
        "A parent loop made over several transactions reaches the other device, in one batch or change by change backwards",
        arguments: rules, [1, 2, 3])
    func loop(under rule: String, length: Int) throws {
        for backwards in [false, true] {
            let d = try LoopDevices(rule: rule)
            try d.makeLoop(length: length, on: d.a)
            let batch = try d.a.sync.pendingChanges(limit: 1_000)
            if backwards {
                for change in batch.changes.reversed() {
                    try d.b.sync.apply(SyncBatch(schemaVersion: batch.schemaVersion, changes: [change]))
                }
            } else {
                try d.b.sync.apply(batch)
            }
            #expect(try d.notes(d.b).count == length, "backwards: \(backwards)")
            #expect(try d.contents(d.b) == d.contents(d.a), "backwards: \(backwards)")
        }
    }

    @Test("Two devices that each point one note at the other's make a loop, which both then hold", arguments: rules)
    func loopMadeAcrossDevices(under rule: String) throws {
        let d = try LoopDevices(rule: rule)
        try d.a.write { db in try db.execute(sql: "INSERT INTO notes(id, title) VALUES ('p', 'p'), ('q', 'q')") }
        try SyncFixture.exchange(from: d.a, to: d.b)
        try d.a.write { db in try db.execute(sql: "UPDATE notes SET parent_id = 'q' WHERE id = 'p'") }
        try d.b.write { db in try db.execute(sql: "UPDATE notes SET parent_id = 'p' WHERE id = 'q'") }
        try SyncFixture.exchange(from: d.a, to: d.b)
        try SyncFixture.exchange(from: d.b, to: d.a)
        #expect(try d.notes(d.a)["p"]?["parent_id"] == .text("q"))
        #expect(try d.notes(d.a)["q"]?["parent_id"] == .text("p"))
        #expect(try d.contents(d.b) == d.contents(d.a))
    }

    @Test("A remote delete inside a parent loop removes what the rule says, and the device keeps syncing", arguments: rules, [1, 2, 3])
    func deleteInLoop(under rule: String, length: Int) throws {
        let d = try LoopDevices(rule: rule)
        try d.makeLoop(length: length, on: d.a)
        try SyncFixture.exchange(from: d.a, to: d.b)
        let delete = d.remoteDelete(of: "n0")
        try d.b.sync.apply(delete)
        try d.a.sync.apply(delete)
        // n1 (n0 itself in a loop of one) has n0 as its parent: under SET NULL it stays with no
        // parent, and the rest of the loop with it; under any other rule it follows n0, and
        // each note after it follows its own parent, round the loop.
        let expected: Set<TextKey> = rule == "ON DELETE SET NULL" ? Set((1..<length).map { TextKey("n\($0)") }) : []
        #expect(Set(try d.notes(d.b).keys) == expected)
        if length > 1, rule == "ON DELETE SET NULL" { #expect(try d.notes(d.b)["n1"]?["parent_id"] == .null) }
        #expect(try d.contents(d.b) == d.contents(d.a))
        try d.a.write { db in try db.execute(sql: "INSERT INTO notes(id, title) VALUES ('after', 'later')") }
        try SyncFixture.exchange(from: d.a, to: d.b)
        #expect(try d.notes(d.b)["after"] != nil)
        #expect(try d.contents(d.b) == d.contents(d.a))
    }
}

/// Two synced stores of notes, each note's parent another note under `rule`.
private struct LoopDevices {
    let fixture: SyncFixture
    let a: Store
    let b: Store

    init(rule: String) throws {
        fixture = try SyncFixture(
            stores: 2, schema: "CREATE TABLE notes(id TEXT PRIMARY KEY, parent_id TEXT REFERENCES notes(id) \(rule), title TEXT);",
            tables: ["notes"])
        a = try fixture.open(0)
        b = try fixture.open(1)
    }

    func notes(_ store: Store) throws -> [TextKey: [String: DatabaseValue]] { try SyncFixture.rows(of: "notes", in: store) }

    func contents(_ store: Store) throws -> [String: [[String]]] { try SyncFixture.contents(of: store, tables: ["notes"]) }

    /// Makes on A the notes n0 … n(length-1), each the parent of the next, one transaction
    /// each, then closes the loop: n0's parent becomes the last (itself, for a loop of one).
    func makeLoop(length: Int, on store: Store) throws {
        for index in 0..<length {
            try store.write { db in
                try db.execute(
                    sql: "INSERT INTO notes(id, parent_id, title) VALUES (?, ?, ?)",
                    arguments: ["n\(index)", index == 0 ? nil : "n\(index - 1)", "note \(index)"])
            }
        }
        try store.write { db in try db.execute(sql: "UPDATE notes SET parent_id = ? WHERE id = 'n0'", arguments: ["n\(length - 1)"]) }
    }

    /// A delete of `key` made on a device of no store here, later than everything the stores hold.
    func remoteDelete(of key: String) -> SyncBatch {
        let change = SyncChange(
            id: SyncChange.ID(device: "remote", sequence: 1), table: "notes", key: .text(key), operation: .delete,
            timestamp: HybridTimestamp(milliseconds: (fixture.clocks.map(\.now).max() ?? 0) + 60_000, counter: 0))
        return SyncBatch(schemaVersion: 0, changes: [change])
    }
}
