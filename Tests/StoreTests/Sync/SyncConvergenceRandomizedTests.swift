import Foundation
import TestSupport
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// Three stores write at random (inserts, updates of random columns, deletes with their
/// cascades, notes made their own parent or each other's, loops made across devices and broken
/// by deletes, multi-row inserts under every conflict clause with canonically equivalent keys,
/// upserts, `REPLACE`, keys changed, statements that write several rows, statements that
/// fail and are caught, rolled-back transactions and savepoints) and exchange changes through an ordered log standing in for the server, with
/// lost acknowledgements (changes pushed again), batches out of order and duplicated, clocks
/// hours apart and going back, and stores closed and reopened between a write and its push.
/// Once all changes are everywhere, every store holds the same synced tables, equal to an
/// independent model of the merge rule; the log holds every change once, none missing.
@Suite("Sync convergence, randomized")
struct SyncConvergenceRandomizedTests {
    static let steps = 400

    @Test("Stores that applied the same changes hold identical tables, as the merge rule says", arguments: ChangeCapture.Source.available)
    func converge(source: ChangeCapture.Source) throws {
        var run = try ConvergenceRun(source: source)
        for _ in 0..<Self.steps { try run.step() }
        try run.quiesce()
        let seed = run.random.seed
        let contents = try run.stores.map { try SyncFixture.contents(of: $0) }
        #expect(contents[1] == contents[0], "seed \(seed)")
        #expect(contents[2] == contents[0], "seed \(seed)")
        let expected = SyncMergeModel(changes: run.server.log).expectedTables()
        for table in SyncFixture.tables {
            #expect(try SyncFixture.rows(of: table, in: run.stores[0]) == expected[table], "\(table), seed \(seed)")
        }
        for (device, sequences) in run.server.sequences() {
            #expect(sequences == Array(1...Int64(sequences.count)), "device \(device) lost or repeated a change, seed \(seed)")
        }
        let lists = try SyncFixture.rows(of: "lists", in: run.stores[0]).keys
        let equivalentKeys = lists.contains { key in lists.contains { $0 != key && $0.description == key.description } }
        #expect(equivalentKeys, "no two kept lists have canonically equivalent keys, seed \(seed)")
        let loops = try run.stores[0].read { db in
            try db.fetchValue(
                Int64.self,
                sql: """
                    WITH RECURSIVE up(start, id, steps) AS (
                        SELECT id, parent_id, 1 FROM notes WHERE parent_id IS NOT NULL
                        UNION SELECT up.start, n.parent_id, up.steps + 1 FROM up JOIN notes n ON n.id = up.id
                        WHERE n.parent_id IS NOT NULL AND up.steps < 50)
                    SELECT count(DISTINCT start) FROM up WHERE id = start
                    """)
        }
        #expect((loops ?? 0) > 0, "no note kept is in a parent loop, seed \(seed)")
        #expect(run.server.log.count > 100, "seed \(seed)")
        #expect(run.server.duplicatesReceived > 0, "no acknowledgement was lost, seed \(seed)")
        for store in run.stores { #expect(try store.sync.pendingChanges().changes.isEmpty) }
    }
}

/// One randomized run: the stores, the log, and each store's place in it.
private struct ConvergenceRun {
    let fixture: SyncFixture
    var stores: [Store]
    let server = SyncServerStandIn()
    var random = SeededGenerator()
    /// The log indices each store has applied.
    var applied: [Set<Int>]
    var nextKey = 0

    init(source: ChangeCapture.Source) throws {
        let fixture = try SyncFixture(stores: 3, source: source)
        self.fixture = fixture
        stores = try (0..<3).map { try fixture.open($0) }
        applied = Array(repeating: [], count: 3)
        fixture.clocks[1].now += 3 * 3_600_000  // hours ahead
        fixture.clocks[2].now -= 2 * 3_600_000  // hours behind
    }

    mutating func step() throws {
        let index = Int.random(in: 0..<stores.count, using: &random)
        fixture.clocks[index].now += Int64.random(in: -20...100, using: &random)  // sometimes backwards
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<11: try write(on: index)
        case 11..<14: try push(index, limit: Int.random(in: 1...40, using: &random))
        case 14..<17: try pull(index, limit: Int.random(in: 1...40, using: &random))
        case 17: try redeliver(to: index)
        default: try reopen(index)
        }
    }

    /// Pushes and pulls everything, everywhere.
    mutating func quiesce() throws {
        for index in stores.indices { try push(index, limit: 100_000, acknowledged: true) }
        for index in stores.indices {
            while applied[index].count < server.log.count { try pull(index, limit: 25) }
        }
    }

    // MARK: Exchange

    mutating func push(_ index: Int, limit: Int, acknowledged: Bool? = nil) throws {
        let batch = try stores[index].sync.pendingChanges(limit: limit)
        server.receive(batch)
        // A lost response: the server stored the changes, the device sends them again later.
        let isAcknowledged = acknowledged ?? (Int.random(in: 0..<4, using: &random) != 0)
        if isAcknowledged, let last = batch.lastID { try stores[index].sync.acknowledge(upTo: last) }
    }

    /// Applies up to `limit` changes the store has not seen, picked anywhere in the log, in random order.
    mutating func pull(_ index: Int, limit: Int) throws {
        let unseen = server.log.indices.filter { !applied[index].contains($0) }.shuffled(using: &random).prefix(limit)
        try stores[index].sync.apply(SyncBatch(schemaVersion: 0, changes: unseen.map { server.log[$0] }))
        applied[index].formUnion(unseen)
    }

    /// Applies again changes the store has already applied.
    mutating func redeliver(to index: Int) throws {
        let seen = applied[index].shuffled(using: &random).prefix(Int.random(in: 1...20, using: &random))
        try stores[index].sync.apply(SyncBatch(schemaVersion: 0, changes: seen.map { server.log[$0] }))
    }

    mutating func reopen(_ index: Int) throws {
        try stores[index].close()
        stores[index] = try fixture.open(index)
    }

    // MARK: Local writes

    private mutating func write(on index: Int) throws {
        let store = stores[index]
        let snapshot = try store.read { db in try LocalRows(db) }
        var operations: [String] = []
        var arguments: [[DatabaseValue]] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let (sql, values) = randomStatement(snapshot)
            operations.append(sql)
            arguments.append(values)
        }
        let rollsBack = Int.random(in: 0..<10, using: &random) == 0
        let savepointStart = Int.random(in: 0...operations.count, using: &random)
        let savepointRollsBack = Int.random(in: 0..<4, using: &random) == 0
        struct RolledBack: Error {}
        try? store.write { db in
            for (offset, sql) in operations.enumerated() where offset < savepointStart {
                try? db.execute(sql: sql, arguments: arguments[offset])
            }
            try? db.transaction {
                for (offset, sql) in operations.enumerated() where offset >= savepointStart {
                    try? db.execute(sql: sql, arguments: arguments[offset])
                }
                if savepointRollsBack { throw RolledBack() }
            }
            if rollsBack { throw RolledBack() }
        }
    }

    /// Several lists in one statement under a random conflict clause: new keys in descending
    /// order (so that the rows' keys and rowids run opposite ways), two of them canonically
    /// equivalent but different in bytes, and sometimes a key that exists already, which each
    /// clause resolves its own way (`OR ROLLBACK` ends the whole transaction).
    private mutating func multiRowInsert(_ rows: LocalRows) -> (String, [DatabaseValue]) {
        let clause = ["", "OR ABORT", "OR FAIL", "OR IGNORE", "OR REPLACE", "OR ROLLBACK"].randomElement(using: &random) ?? ""
        nextKey += 1
        var keys: [DatabaseValue] = [
            .text("L\(nextKey)\u{E9}"), .text("L\(nextKey)z"), .text("L\(nextKey)e\u{301}"), .text("L\(nextKey)a"),
        ]
        if Bool.random(using: &random) { keys.insert(pick(rows.lists), at: Int.random(in: 0...keys.count, using: &random)) }
        let values = Array(repeating: "(?, ?, ?)", count: keys.count).joined(separator: ", ")
        let arguments = keys.flatMap { key in [key, randomValue(0), randomValue(1)] }
        return ("INSERT \(clause) INTO lists(id, name, color) VALUES \(values)", arguments)
    }

    /// An upsert of a list, new or existing: `DO UPDATE` of some of its columns, or `DO NOTHING`.
    private mutating func upsert(_ rows: LocalRows) -> (String, [DatabaseValue]) {
        let key = Bool.random(using: &random) ? pick(rows.lists) : newKey("L")
        let action =
            switch Int.random(in: 0..<3, using: &random) {
            case 0: "DO NOTHING"
            case 1: "DO UPDATE SET name = excluded.name"
            default: "DO UPDATE SET color = coalesce(color, 0) + 1, name = name WHERE excluded.color IS NOT NULL"
            }
        return ("INSERT INTO lists(id, name, color) VALUES (?, ?, ?) ON CONFLICT (id) \(action)", [key, randomValue(0), randomValue(1)])
    }

    /// A row's key changed: the row under its old key is gone, one under the new key appears.
    /// A list or an item with children fails (their foreign keys have no `ON UPDATE` action);
    /// a new key that exists fails the primary key.
    private mutating func changeKey(_ rows: LocalRows) -> (String, [DatabaseValue]) {
        let (table, keys, prefix) =
            [("lists", rows.lists, "L"), ("items", rows.items, "I"), ("tags", rows.tags, "T")]
            .randomElement(using: &random) ?? ("tags", rows.tags, "T")
        let newKey = Int.random(in: 0..<6, using: &random) == 0 ? pick(keys) : newKey(prefix)
        return ("UPDATE \(table) SET id = ? WHERE id = ?", [newKey, pick(keys, orMissing: 4)])
    }

    /// One statement that writes several rows, or none: a list's items, or the tags with a label.
    private mutating func severalRows(_ rows: LocalRows) -> (String, [DatabaseValue]) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: ("UPDATE items SET score = coalesce(score, 0) + 0.25, done = 1 - done WHERE list_id = ?", [pick(rows.lists)])
        case 1: ("DELETE FROM tags WHERE label = ?", [randomValue(0)])
        default: ("UPDATE lists SET color = NULL WHERE color > ?", [randomValue(1)])
        }
    }

    private mutating func newKey(_ prefix: String) -> DatabaseValue {
        nextKey += 1
        return .text("\(prefix)\(nextKey)")
    }

    /// An item key, which sometimes spells a number ("7", "7.5"): a tag's `NUMERIC` `item_id`
    /// then holds it as a number, which SQLite still matches with the item's text key.
    private mutating func newItemKey() -> DatabaseValue {
        nextKey += 1
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return .text("\(nextKey)")
        case 1: return .text("\(nextKey).5")
        default: return .text("I\(nextKey)")
        }
    }

    private mutating func randomValue(_ kind: Int) -> DatabaseValue {
        switch kind {
        // "a" and "A" are one under the lists' NOCASE name, "é" and "e\u{301}" under String's `==`.
        case 0:
            return [.text("a"), .text("A"), .text("b"), .text("\u{E9}"), .text("e\u{301}"), .text("")].randomElement(using: &random)
                ?? .null
        case 1: return Int.random(in: 0..<5, using: &random) == 0 ? .null : .integer(Int64.random(in: -3...3, using: &random))
        default: return .real(Double(Int.random(in: -8...8, using: &random)) / 4)
        }
    }

    private mutating func pick(_ keys: [DatabaseValue], orMissing chance: Int = 8) -> DatabaseValue {
        if keys.isEmpty || Int.random(in: 0..<chance, using: &random) == 0 { return .text("missing") }
        return keys.randomElement(using: &random) ?? .null
    }

    /// A statement on notes, whose parent (`CASCADE`) and note to see also (`SET NULL`) are
    /// notes: itself, one of the others, or one that is missing (a foreign key that fails).
    /// Parent loops form when a note's parent becomes one of its descendants, here or on
    /// another device at the same time.
    private mutating func noteStatement(_ rows: LocalRows) -> (String, [DatabaseValue]) {
        let note = pick(rows.notes, orMissing: 6)
        switch Int.random(in: 0..<7, using: &random) {
        case 0, 1:
            let key = newKey("N")
            let parent = Bool.random(using: &random) ? key : pick(rows.notes + [.null])
            return (
                "INSERT INTO notes(id, parent_id, see_also, body) VALUES (?, ?, ?, ?)",
                [key, parent, pick(rows.notes + [.null]), randomValue(0)]
            )
        case 2, 3:
            let parent = Int.random(in: 0..<3, using: &random) == 0 ? note : pick(rows.notes + [.null])
            return ("UPDATE notes SET parent_id = ? WHERE id = ?", [parent, note])
        case 4:
            return ("UPDATE notes SET see_also = ?, body = ? WHERE id = ?", [pick(rows.notes + [.null]), randomValue(0), note])
        case 5:
            return ("DELETE FROM notes WHERE id = ?", [note])
        default:
            return (
                "INSERT OR REPLACE INTO notes(id, parent_id, body) VALUES (?, ?, ?)", [note, pick(rows.notes + [.null]), randomValue(0)]
            )
        }
    }

    /// One statement and its arguments; some fail (foreign key, NOT NULL, UNIQUE), as an app's may.
    private mutating func randomStatement(_ rows: LocalRows) -> (String, [DatabaseValue]) {
        switch Int.random(in: 0..<22, using: &random) {
        case 18..<22:
            return noteStatement(rows)
        case 0, 1:
            return ("INSERT INTO lists(id, name, color) VALUES (?, ?, ?)", [newKey("L"), randomValue(0), randomValue(1)])
        case 2, 3:
            return (
                "INSERT INTO items(id, list_id, title, score) VALUES (?, ?, ?, ?)",
                [newItemKey(), pick(rows.lists), randomValue(0), randomValue(2)]
            )
        case 4:
            let item = Int.random(in: 0..<3, using: &random) == 0 ? DatabaseValue.null : pick(rows.items)
            return ("INSERT INTO tags(id, item_id, label) VALUES (?, ?, ?)", [newKey("T"), item, randomValue(0)])
        case 5:
            return ("UPDATE lists SET name = ? WHERE id = ?", [Bool.random(using: &random) ? randomValue(0) : .null, pick(rows.lists)])
        case 6:
            return ("UPDATE items SET title = ?, done = 1 - done WHERE id = ?", [randomValue(0), pick(rows.items)])
        case 7:
            return ("UPDATE items SET score = ?, list_id = ? WHERE id = ?", [randomValue(2), pick(rows.lists), pick(rows.items)])
        case 8:
            return ("UPDATE tags SET item_id = ?, label = ? WHERE id = ?", [pick(rows.items), randomValue(0), pick(rows.tags)])
        case 9:
            let table = ["lists", "items", "tags"].randomElement(using: &random) ?? "lists"
            let keys = table == "lists" ? rows.lists : table == "items" ? rows.items : rows.tags
            return ("DELETE FROM \(table) WHERE id = ?", [pick(keys, orMissing: 4)])
        case 10:
            return ("INSERT OR REPLACE INTO lists(id, name, color) VALUES (?, ?, ?)", [pick(rows.lists), randomValue(0), randomValue(1)])
        case 11:
            return ("INSERT INTO lists(id, name) VALUES (?, 'duplicate')", [pick(rows.lists)])  // fails when the key exists
        case 12:
            return multiRowInsert(rows)
        case 13:
            return upsert(rows)
        case 14:
            return changeKey(rows)
        case 15:
            return severalRows(rows)
        case 16:
            // Replaces an item: the old row goes (its tags' `item_id` set to NULL), a new one takes its key.
            return ("REPLACE INTO items(id, list_id, title) VALUES (?, ?, ?)", [pick(rows.items), pick(rows.lists), randomValue(0)])
        default:
            return ("UPDATE lists SET color = color WHERE id = ?", [pick(rows.lists)])  // writes the same value
        }
    }
}

/// The keys a store holds now, to aim writes at.
private struct LocalRows {
    let lists: [DatabaseValue]
    let items: [DatabaseValue]
    let tags: [DatabaseValue]
    let notes: [DatabaseValue]

    init(_ db: Database) throws {
        func keys(_ table: String) throws -> [DatabaseValue] { try db.fetchRows(sql: "SELECT id FROM \(table) ORDER BY id").map { $0[0] } }
        lists = try keys("lists")
        items = try keys("items")
        tags = try keys("tags")
        notes = try keys("notes")
    }
}
