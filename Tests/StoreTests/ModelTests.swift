import Foundation
import SQLiteStoreCore
import Testing

/// A nested value stored as JSON text.
struct Location: Codable, Equatable {
    var latitude: Double
    var longitude: Double
    var label: String?
}

/// A plain `Codable` enum that does not declare `DatabaseValueConvertible`: stored as JSON like any nested value.
enum Status: String, Codable {
    case open, closed
}

/// A model with properties stored as JSON text.
struct Note: StoreModel, Equatable {
    static let tableName = "note"
    var id: Int64?
    var tags: [String]
    var location: Location?
    var status: Status
    var mood: Mood

    static let schema = "CREATE TABLE note(id INTEGER PRIMARY KEY, tags TEXT, location TEXT, status TEXT, mood TEXT)"
}

/// A model keyed by text, as synced tables are.
private struct Label: StoreModel {
    static let tableName = "label"
    var id: String
    var name: String
}

/// The same in a `WITHOUT ROWID` table.
private struct PlainLabel: StoreModel {
    static let tableName = "plain"
    var id: String
    var name: String
}

/// Inserting, updating, upserting, saving, deleting and fetching models.
@Suite("Models")
struct ModelTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema + Note.schema)
    }

    private func insert(_ items: [Item]) throws -> [Item] {
        try store.write { db in
            try items.map { item in
                var item = item
                try db.insert(&item)
                return item
            }
        }
    }

    @Test("insert sets the new id and the row reads back equal")
    func insertSetsID() throws {
        let items = try insert([Item(title: "a", score: 1, rank: 0.5, done: true), Item(title: "b")])
        #expect(items.map(\.id) == [1, 2])
        #expect(items[0].objectID == ObjectID(table: "item", rowID: 1))
        let fetched = try store.read { db in try items.map { try db.fetchOne(Item.self, id: $0.id ?? 0) } }
        #expect(fetched == items)
    }

    @Test("insert with an id uses it; inserting it twice is a primary key violation")
    func insertWithID() throws {
        let item = try insert([Item(id: 42, title: "answer")])[0]
        #expect(item.id == 42)
        let error = #expect(throws: StoreError.self) { _ = try insert([Item(id: 42, title: "again")]) }
        #expect(error?.code == .constraint)
        #expect(error?.extendedCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
        #expect(try store.read { db in try db.count("item") } == 1)
    }

    @Test("nil optionals are stored as NULL, not as the column's default")
    func nilIsNull() throws {
        let store = try directory.makeStore(
            named: "defaults.sqlite",
            schema: """
                CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL, score INTEGER DEFAULT 7,
                                  rank REAL DEFAULT 1.5, done INTEGER NOT NULL DEFAULT 0)
                """)
        let item = try store.write { db in
            var item = Item(title: "no score")
            try db.insert(&item)
            return item
        }
        #expect(try store.read { db in try db.fetchOne(Item.self, id: item.id ?? 0) } == item)
    }

    @Test("update writes every property, nil ones included")
    func update() throws {
        var item = try insert([Item(title: "draft", score: 3, rank: 2.5)])[0]
        item.title = "final"
        item.score = nil
        item.rank = nil
        item.done = true
        try store.write { db in try db.update(item) }
        #expect(try store.read { db in try db.fetchOne(Item.self, id: item.id ?? 0) } == item)
        let nulls = try store.read { db in
            try db.fetchValue(Int.self, sql: "SELECT count(*) FROM item WHERE score IS NULL AND rank IS NULL")
        }
        #expect(nulls == 1)
    }

    @Test("update of a missing row throws SQLITE_NOTFOUND and rolls back")
    func updateMissing() throws {
        let error = #expect(throws: StoreError.self) {
            try store.write { db in
                var other = Item(title: "kept only if the write commits")
                try db.insert(&other)
                try db.update(Item(id: 99, title: "ghost"))
            }
        }
        #expect(error?.code == .notFound)
        #expect(error?.sql?.hasPrefix("UPDATE \"item\"") == true)
        #expect(error?.sql?.contains("ghost") == false)
        #expect(try store.read { db in try db.count("item") } == 0)
    }

    @Test("update, delete of a model without id are misuse")
    func withoutID() throws {
        let update = #expect(throws: StoreError.self) { try store.write { db in try db.update(Item(title: "new")) } }
        #expect(update?.code == .misuse)
        let delete = #expect(throws: StoreError.self) { try store.write { db in try db.delete(Item(title: "new")) } }
        #expect(delete?.code == .misuse)
    }

    @Test("upsert inserts a new model, updates an existing one, inserts a missing id")
    func upsert() throws {
        var created = Item(title: "new")
        var existing = try insert([Item(title: "old", score: 1)])[0]
        existing.title = "changed"
        existing.score = nil
        var chosen = Item(id: 50, title: "chosen id")
        try store.write { db in
            try db.upsert(&created)
            try db.upsert(&existing)
            try db.upsert(&chosen)
        }
        #expect(created.id == 2)
        #expect(chosen.id == 50)
        let all = try store.read { db in try db.fetch(StoreRequest<Item>()) }
        #expect(all == [existing, created, chosen])
    }

    @Test("save inserts without id and updates with one")
    func save() throws {
        var item = Item(title: "first")
        try store.write { db in try db.save(&item) }
        #expect(item.id == 1)
        item.title = "second"
        try store.write { db in try db.save(&item) }
        #expect(try store.read { db in try db.fetch(StoreRequest<Item>()) } == [item])
    }

    @Test("delete reports whether a row went; deleteAll(matching:) counts the rows it deleted")
    func delete() throws {
        let items = try insert((1...6).map { (number: Int) in Item(title: "item \(number)", score: number) })
        let (first, again, byID) = try store.write { db in
            (try db.delete(items[0]), try db.delete(items[0]), try db.delete(Item.self, id: items[1].id ?? 0))
        }
        #expect(first && !again && byID)
        let matching = try store.write { db in try db.deleteAll(Item.self, matching: Column("score") > 4) }
        #expect(matching == 2)
        #expect(try store.read { db in try db.fetch(StoreRequest<Item>()) } == Array(items[2...3]))
        let rest = try store.write { db in try db.deleteAll(Item.self) }
        #expect(rest == 2)
        #expect(try store.read { db in try db.count("item") } == 0)
    }

    @Test("fetchOne, exists, fetch and fetchCount")
    func fetching() throws {
        let items = try insert((1...5).map { (number: Int) in Item(title: "item \(number)", score: number * 10) })
        let request = StoreRequest<Item>().filter(Column("score") >= 20).order(Column("score").descending)
        let (third, missing, fifthExists, sixthExists) = try store.read { db in
            (
                try db.fetchOne(Item.self, id: 3), try db.fetchOne(Item.self, id: 99),
                try db.exists(Item.self, id: 5), try db.exists(Item.self, id: 6)
            )
        }
        #expect(third == items[2])
        #expect(missing == nil)
        #expect(fifthExists && !sixthExists)
        let (fetched, count, limitedCount, total) = try store.read { db in
            (
                try db.fetch(request), try db.fetchCount(request), try db.fetchCount(request.limit(2)),
                try db.fetchCount(StoreRequest<Item>())
            )
        }
        #expect(fetched == Array(items[1...].reversed()))
        #expect(count == 4 && limitedCount == 2 && total == 5)
    }

    @Test("A model with a text key finds its object id by a read; a missing key has none, a WITHOUT ROWID table is refused")
    func objectIDOfTextKey() throws {
        let labels = try directory.makeStore(
            named: "labels.sqlite",
            schema: "CREATE TABLE label(id TEXT PRIMARY KEY, name TEXT); CREATE TABLE plain(id TEXT PRIMARY KEY, name TEXT) WITHOUT ROWID;")
        try labels.write { db in try db.execute(sql: "INSERT INTO label(id, name) VALUES ('a', 'one'), ('b', 'two')") }
        let (second, missing) = try labels.read { db in
            (try db.objectID(of: Label.self, id: "b"), try db.objectID(of: Label.self, id: "z"))
        }
        #expect(second == ObjectID(table: "label", rowID: 2))
        #expect(missing == nil)
        #expect(throws: StoreError.self) { try labels.read { db in try db.objectID(of: PlainLabel.self, id: "a") } }
    }

    @Test("async write and read forms work with models")
    func asyncForms() async throws {
        let item = try await store.write { db in
            var item = Item(title: "async")
            try db.insert(&item)
            return item
        }
        let fetched = try await store.read { db in try db.fetchOne(Item.self, id: item.id ?? 0) }
        #expect(fetched == item)
    }

    @Test("Codable properties are stored as JSON text and read back equal")
    func jsonColumns() throws {
        var note = Note(
            tags: ["a", "b \"quoted\"", "ü 🎉"], location: Location(latitude: 48.85, longitude: 2.35, label: nil),
            status: .closed, mood: .busy)
        try store.write { db in try db.insert(&note) }
        let (fetched, row) = try store.read { db in
            (
                try db.fetchOne(Note.self, id: note.id ?? 0),
                try db.fetchRows(
                    sql: "SELECT json_valid(tags) AS tagsValid, json_extract(location, '$.latitude') AS latitude, status, mood FROM note"
                ).first
            )
        }
        #expect(fetched == note)
        #expect(row?["tagsValid"] == .integer(1))
        #expect(row?["latitude"] == .real(48.85))
        #expect(row?["status"] == .text("\"closed\""))  // a plain Codable enum is JSON
        #expect(row?["mood"] == .text("busy"))  // a DatabaseValueConvertible enum is its raw value
    }

    @Test("A nil Codable property is NULL, not the JSON text null")
    func nilJSONColumn() throws {
        var note = Note(tags: [], location: nil, status: .open, mood: .calm)
        try store.write { db in try db.insert(&note) }
        let location = try store.read { db in try db.fetchRows(sql: "SELECT location FROM note").first?["location"] }
        #expect(location == .null)
        #expect(try store.read { db in try db.fetchOne(Note.self, id: note.id ?? 0) } == note)
    }
}
