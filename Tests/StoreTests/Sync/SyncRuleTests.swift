import Foundation
import TestSupport
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// The merge rule, case by case: last writer wins per column by (hybrid timestamp, device),
/// deletes are tombstones that an update later than the delete overrides, and rows follow
/// their parents' deletes by the schema's rule.
@Suite("Sync merge rule")
struct SyncRuleTests {
    let fixture: SyncFixture
    let a: Store
    let b: Store

    init() throws {
        fixture = try SyncFixture(stores: 2)
        a = try fixture.open(0)
        b = try fixture.open(1)
    }

    private func seedList(_ id: String = "L1", name: String = "Home") throws {
        try a.write { db in try db.execute(sql: "INSERT INTO lists(id, name, color) VALUES (?, ?, 1)", arguments: [id, name]) }
        try SyncFixture.exchange(from: a, to: b)
    }

    private func lists(_ store: Store) throws -> [TextKey: [String: DatabaseValue]] { try SyncFixture.rows(of: "lists", in: store) }

    /// Runs `onA` on A and `onB` on B, B's clock ahead of A's when `bIsLater`, then sends
    /// each device's changes to the other, in the order `aFirst` says.
    private func concurrently(onA: String, onB: String, bIsLater: Bool, aFirst: Bool = true) throws {
        fixture.clocks[0].now += bIsLater ? 10 : 50
        fixture.clocks[1].now += bIsLater ? 50 : 10
        try a.write { db in try db.execute(sql: onA) }
        try b.write { db in try db.execute(sql: onB) }
        let order = aFirst ? [(a, b), (b, a)] : [(b, a), (a, b)]
        for (from, to) in order { try SyncFixture.exchange(from: from, to: to) }
    }

    @Test("Two devices editing different columns of one row both keep their edit")
    func differentColumnsBothKept() throws {
        try seedList()
        try concurrently(
            onA: "UPDATE lists SET name = 'Work' WHERE id = 'L1'", onB: "UPDATE lists SET color = 7 WHERE id = 'L1'", bIsLater: true)
        #expect(try lists(a)["L1"]?["name"] == .text("Work"))
        #expect(try lists(a)["L1"]?["color"] == .integer(7))
        #expect(try SyncFixture.contents(of: a) == SyncFixture.contents(of: b))
    }

    @Test("Of two edits of one column the later timestamp wins, on both devices, in either order", arguments: [true, false])
    func laterEditWins(aFirst: Bool) throws {
        try seedList()
        try concurrently(
            onA: "UPDATE lists SET name = 'A' WHERE id = 'L1'", onB: "UPDATE lists SET name = 'B' WHERE id = 'L1'", bIsLater: false,
            aFirst: aFirst)
        #expect(try lists(a)["L1"]?["name"] == .text("A"))
        #expect(try lists(b)["L1"]?["name"] == .text("A"))
    }

    @Test("A delete wins over an update made before it, even when the update arrives after it")
    func deleteWinsOverEarlierUpdate() throws {
        try seedList()
        try concurrently(
            onA: "DELETE FROM lists WHERE id = 'L1'", onB: "UPDATE lists SET name = 'Edited' WHERE id = 'L1'", bIsLater: false)
        #expect(try lists(a).isEmpty)
        #expect(try lists(b).isEmpty)
    }

    @Test("The one exception: an update later than the delete brings the row back, with every column's latest value")
    func laterUpdateRevivesRow() throws {
        try seedList()
        try concurrently(onA: "DELETE FROM lists WHERE id = 'L1'", onB: "UPDATE lists SET name = 'Kept' WHERE id = 'L1'", bIsLater: true)
        let expected: [String: DatabaseValue] = ["id": .text("L1"), "name": .text("Kept"), "color": .integer(1)]
        #expect(try lists(a)["L1"] == expected)
        #expect(try lists(b)["L1"] == expected)
    }

    @Test("An item added on one device to a list deleted on another follows ON DELETE CASCADE; a tag follows SET NULL")
    func childOfRemotelyDeletedParent() throws {
        try seedList()
        try a.write { db in
            try db.execute(sql: "INSERT INTO items(id, list_id, title) VALUES ('I0', 'L1', 'first')")
            try db.execute(sql: "INSERT INTO tags(id, item_id, label) VALUES ('T0', 'I0', 'red')")
        }
        try SyncFixture.exchange(from: a, to: b)
        fixture.clocks[0].now += 10
        fixture.clocks[1].now += 20
        try a.write { db in try db.execute(sql: "DELETE FROM lists WHERE id = 'L1'") }
        try b.write { db in
            try db.execute(sql: "INSERT INTO items(id, list_id, title) VALUES ('I1', 'L1', 'late')")
            try db.execute(sql: "INSERT INTO tags(id, item_id, label) VALUES ('T1', 'I1', 'blue')")
        }
        try SyncFixture.exchange(from: a, to: b)
        try SyncFixture.exchange(from: b, to: a)
        for store in [a, b] {
            #expect(try SyncFixture.rows(of: "items", in: store).isEmpty)
            let tags = try SyncFixture.rows(of: "tags", in: store)
            #expect(tags["T0"]?["item_id"] == .null)
            #expect(tags["T1"]?["item_id"] == .null)
            #expect(tags["T1"]?["label"] == .text("blue"))
        }
        #expect(try SyncFixture.contents(of: a) == SyncFixture.contents(of: b))
    }

    @Test("A text changed only in its code points (é to e + U+0301, equal to Swift's ==) is sent, and lands byte for byte")
    func canonicallyEquivalentTextIsAChange() throws {
        try seedList(name: "Caf\u{E9}")
        try a.write { db in try db.execute(sql: "UPDATE lists SET name = ? WHERE id = 'L1'", arguments: ["Cafe\u{301}"]) }
        #expect(try a.sync.pendingChanges().changes.count == 1, "the new bytes are a change")
        try SyncFixture.exchange(from: a, to: b)
        let bytes = try b.read { db in try db.fetchValue(String.self, sql: "SELECT hex(name) FROM lists WHERE id = 'L1'") }
        #expect(bytes == "43616665CC81")
        #expect(try SyncFixture.contents(of: a) == SyncFixture.contents(of: b))
    }

    @Test("A batch applied twice is applied once: the second changes and publishes nothing")
    func applyingTwiceChangesNothing() throws {
        try a.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L1', 'Home')") }
        let batch = try a.sync.pendingChanges()
        try b.sync.apply(batch)
        let before = try SyncFixture.contents(of: b)
        let published = PublishedChanges(store: b)
        try b.sync.apply(batch)
        #expect(try SyncFixture.contents(of: b) == before)
        #expect(published.all.isEmpty)
    }

    @Test("Applied remote changes are published as remote and never recorded for sending")
    func remoteChangesPublishedNotRecorded() throws {
        let published = PublishedChanges(store: b)
        try a.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L1', 'Home')") }
        try SyncFixture.exchange(from: a, to: b)
        #expect(published.all.count == 1)
        #expect(published.all.first?.isRemote == true)
        #expect(published.all.first?.changes(in: "lists").inserted.count == 1)
        #expect(try b.sync.pendingChanges().changes.isEmpty)
        try b.write { db in try db.execute(sql: "UPDATE lists SET color = 3") }
        #expect(published.all.last?.isRemote == false)
        #expect(try b.sync.pendingChanges().changes.map(\.operation) == [.set(column: "color", value: .integer(3))])
    }

    @Test("Rolled-back work, a failed statement caught with try? and a rolled-back savepoint record nothing")
    func rolledBackWorkRecordsNothing() throws {
        struct Refused: Error {}
        try? a.write { db in
            try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L1', 'Home')")
            throw Refused()
        }
        try a.write { db in
            try? db.execute(sql: "INSERT INTO items(id, list_id) VALUES ('I1', 'missing')")
            try? db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L2', NULL)")
            try? db.transaction {
                try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L3', 'Gone')")
                throw Refused()
            }
            try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L4', 'Kept')")
        }
        let keys = try a.sync.pendingChanges().changes.map(\.key)
        #expect(Set(keys) == [.text("L4")])
        #expect(keys.count == 2)  // name and color
    }

    @Test("An update that writes the values a row already has records nothing")
    func sameValuesRecordNothing() throws {
        try a.write { db in try db.execute(sql: "INSERT INTO lists(id, name, color) VALUES ('L1', 'Home', 1)") }
        let recorded = try a.sync.pendingChanges().changes.count
        try a.write { db in try db.execute(sql: "UPDATE lists SET name = 'Home', color = 1") }
        #expect(try a.sync.pendingChanges().changes.count == recorded)
    }

    @Test("Acknowledged changes leave the outbox; the rest stay, in order")
    func acknowledgeTrimsOutbox() throws {
        try a.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L1', 'Home')") }
        try a.write { db in try db.execute(sql: "DELETE FROM lists") }
        let all = try a.sync.pendingChanges().changes
        #expect(all.map(\.id.sequence) == [1, 2, 3])
        #expect(all.last?.operation == .delete)
        try a.sync.acknowledge(upTo: all[1].id)
        #expect(try a.sync.pendingChanges().changes == [all[2]])
        #expect(throws: StoreError.self) { try a.sync.acknowledge(upTo: SyncChange.ID(device: "other", sequence: 3)) }
    }
}
