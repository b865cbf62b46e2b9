import SQLiteStoreCore
import Testing

/// A model whose table is `WITHOUT ROWID` is refused at its first fetch or write, and the
/// refusal follows the schema: this connection's changes, rollbacks and another process's.
@Suite("Models of WITHOUT ROWID tables")
struct ModelWithoutRowIDTests {
    let directory: TemporaryDirectory
    let store: Store

    static let withoutRowID = "CREATE TABLE country(code TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL) WITHOUT ROWID;"
    static let recreatedWithoutRowID = "DROP TABLE country; " + withoutRowID
    static let recreatedWithRowID = "DROP TABLE country; " + Country.schema

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore()
    }

    /// Expects `body` to throw the refusal: a mismatch that names the model, the table and why.
    private func expectRefusal(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: StoreError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.code == .mismatch, sourceLocation: sourceLocation)
        let message = error?.message ?? ""
        #expect(message.contains("Country cannot use table country: it is WITHOUT ROWID"), sourceLocation: sourceLocation)
        #expect(message.contains("identify rows by rowid"), sourceLocation: sourceLocation)
    }

    /// Creates `country` as a rowid table and stores France through the model: its table is now known to be a rowid table.
    private func storeFrance() throws -> Country {
        try store.write { db in try db.execute(script: Country.schema) }
        var france = Country(code: "FR", name: "France")
        try store.write { db in try db.insert(&france) }
        #expect(try store.read { db in try db.fetch(StoreRequest<Country>()) } == [france])
        return france
    }

    @Test("Every fetch and write of the model throws, naming the table and why, and writes nothing")
    func everyUseIsRefused() throws {
        try store.write { db in try db.execute(script: Self.withoutRowID + "INSERT INTO country VALUES ('FR', 'France');") }
        var spain = Country(code: "ES", name: "Spain")
        let france = Country(code: "FR", name: "France")
        try store.read { db in
            expectRefusal { _ = try db.fetch(StoreRequest<Country>()) }
            expectRefusal { _ = try db.fetchOne(Country.self, id: "FR") }
            expectRefusal { _ = try db.fetchCount(StoreRequest<Country>()) }
            expectRefusal { _ = try db.exists(Country.self, id: "FR") }
            expectRefusal { _ = try db.cursor(StoreRequest<Country>()) }
        }
        try store.write { db in
            expectRefusal { try db.insert(&spain) }
            expectRefusal { try db.update(france) }
            expectRefusal { try db.upsert(&spain) }
            expectRefusal { try db.update(france, columnNames: ["name"]) }
            expectRefusal { try db.upsert(&spain, onConflictOf: ["code"]) }
            expectRefusal { _ = try db.updateAll(Country.self, set: [Country.columns.name.set("Francia")]) }
            expectRefusal { _ = try db.delete(france) }
            expectRefusal { _ = try db.deleteAll(Country.self) }
        }
        let rows = try store.read { db in try db.fetchRows(sql: "SELECT code, name FROM country") }
        #expect(rows.map { $0.values } == [[.text("FR"), .text("France")]])
    }

    @Test("A table recreated WITHOUT ROWID after the model used it is refused, in and across transactions")
    func followsThisConnectionsSchemaChanges() throws {
        var france = try storeFrance()
        // In one transaction: the write before the change is allowed, the one after it refused.
        try store.write { db in
            try db.update(france)
            try db.execute(script: Self.recreatedWithoutRowID)
            expectRefusal { try db.update(france) }
            expectRefusal { _ = try db.fetch(StoreRequest<Country>()) }
        }
        try store.read { db in expectRefusal { _ = try db.fetch(StoreRequest<Country>()) } }
        // A rolled-back change back to a rowid table leaves the refusal in place.
        struct Undo: Error {}
        #expect(throws: Undo.self) {
            try store.write { db in
                try db.execute(script: Self.recreatedWithRowID)
                try db.insert(&france)
                throw Undo()
            }
        }
        try store.write { db in expectRefusal { try db.insert(&france) } }
        try store.write { db in try db.execute(script: Self.recreatedWithRowID) }
        try store.write { db in try db.insert(&france) }
        #expect(try store.read { db in try db.fetch(StoreRequest<Country>()) } == [france])
    }

    @Test("A table that another connection recreates WITHOUT ROWID is refused on the store's next use")
    func followsAnotherConnectionsSchemaChange() throws {
        _ = try storeFrance()
        try RawConnection(path: store.path).execute(Self.recreatedWithoutRowID)
        var spain = Country(code: "ES", name: "Spain")
        try store.write { db in expectRefusal { try db.insert(&spain) } }
        try store.read { db in expectRefusal { _ = try db.fetch(StoreRequest<Country>()) } }
    }
}
