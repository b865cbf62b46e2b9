import Foundation
import SQLiteStoreCore
import Testing

/// Primary keys other than the rowid: UUID and String keys in rowid tables, found by key
/// and by rowid, with the rowid as the identity the library publishes.
@Suite("Model primary keys")
struct ModelKeyTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Todo.schema + Document.schema + Country.schema)
    }

    @Test("A UUID key: insert keeps it, fetch, exists, update and delete go by it")
    func uuidKey() throws {
        var report = Document(id: UUID(), name: "Report", slug: "report")
        let other = Document(id: UUID(), name: "Other", slug: "other")
        let key = report.id
        try store.write { db in
            try db.insert(&report)
            var copy = other
            try db.insert(&copy)
        }
        #expect(report.id == key)
        #expect(report.objectID == nil)  // not the rowid: ask the database
        report.name = "Final report"
        let (fetched, exists, deleted, remaining) = try store.write { db in
            try db.update(report)
            return (
                try db.fetchOne(Document.self, id: key), try db.exists(Document.self, id: key),
                try db.delete(Document.self, id: other.id), try db.fetch(StoreRequest<Document>())
            )
        }
        #expect(fetched == report)
        #expect(exists)
        #expect(deleted)
        #expect(remaining == [report])
    }

    @Test("A String key marked @PrimaryKey: id forwards to it; save upserts by it")
    func stringKey() throws {
        var france = Country(code: "FR", name: "France")
        #expect(france.id == "FR")
        try store.write { db in
            try db.save(&france)
            var renamed = Country(code: "FR", name: "République française")
            try db.save(&renamed)
        }
        let stored = try store.read { db in try db.fetch(StoreRequest<Country>()) }
        #expect(stored == [Country(code: "FR", name: "République française")])
        #expect(Country.primaryKeyColumn == "code")
    }

    @Test("Rows of a UUID-keyed model are keyed by rowid for the controller, and found by rowid")
    func rowIDIdentity() throws {
        let documents = (0..<5).map { Document(id: UUID(), name: "d\($0)", slug: "s\($0)") }
        try store.write { db in
            for var document in documents { try db.insert(&document) }
            try db.execute(sql: "DELETE FROM document WHERE slug = 's1'")
        }
        let (byRowID, viaRowIDs, third) = try store.read { db in
            (
                try db.fetchByRowID(StoreRequest<Document>()), try db.fetchModels(Document.self, rowIDs: [2, 3, 99]),
                try db.fetchOne(Document.self, rowID: 3)
            )
        }
        #expect(byRowID.keys.sorted() == [1, 3, 4, 5])
        #expect(byRowID[4] == documents[3])
        #expect(viaRowIDs == [3: documents[2]])
        #expect(third == documents[2])
        let deleted = try store.write { db in try db.delete(Document.self, rowID: 3) }
        #expect(deleted)
    }

    @Test("An Int64? rowid key is assigned on insert and gives the model its ObjectID")
    func rowidKey() throws {
        var todo = Todo(title: "a", done: false)
        try store.write { db in try db.insert(&todo) }
        #expect(todo.id == 1)
        #expect(todo.objectID == ObjectID(table: "todo", rowID: 1))
    }
}
