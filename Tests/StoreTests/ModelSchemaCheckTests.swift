import SQLiteStoreCore
import Testing

/// `db.check(_:)`: every difference between a model and its table, in one error.
@Suite("Model schema check")
struct ModelSchemaCheckTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore()
    }

    @Test("A model that matches its table passes; so do UUID- and String-keyed ones")
    func matchingModels() throws {
        try store.write { db in try db.execute(script: Todo.schema + Document.schema + Country.schema) }
        try store.read { db in
            try db.check(Todo.self)
            try db.check(Document.self)
            try db.check(Country.self)
        }
    }

    @Test("Every difference is listed in one error")
    func everyDifference() throws {
        try store.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE todo(id INT PRIMARY KEY, title TEXT, is_done TEXT NOT NULL, priority INTEGER NOT NULL,
                                      created REAL NOT NULL)
                    """)
        }
        let differences = try store.read { db in try db.schemaDifferences(Todo.self) }
        #expect(
            Set(differences) == [
                .notRowIDAlias(column: "id", declaredType: "INT"),
                .nullableButRequired(column: "title"),
                .affinity(column: "is_done", expected: .integer, actual: .text),
                .notNullButOptional(column: "priority"),
                .missingColumn("tag"),
                .unwrittenRequiredColumn("created"),
            ])
        let error = #expect(throws: StoreError.self) { try store.read { db in try db.check(Todo.self) } }
        #expect(error?.code == .mismatch)
        #expect(error?.message.components(separatedBy: "\n").count == 7)
    }

    @Test("A missing table, another primary key, and a WITHOUT ROWID table are reported")
    func tableLevelDifferences() throws {
        try store.write { db in
            try db.execute(sql: "CREATE TABLE document(id TEXT, name TEXT NOT NULL, slug TEXT NOT NULL, PRIMARY KEY(slug))")
            try db.execute(sql: "CREATE TABLE country(code TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL) WITHOUT ROWID")
        }
        let (todo, document, country) = try store.read { db in
            (try db.schemaDifferences(Todo.self), try db.schemaDifferences(Document.self), try db.schemaDifferences(Country.self))
        }
        #expect(todo == [.missingTable("todo")])
        #expect(document == [.primaryKey(expected: "id", actual: ["slug"]), .nullableButRequired(column: "id")])
        #expect(country == [.withoutRowID("country")])
    }

    @Test("A WITHOUT ROWID table declared in capitals is reported, as SQLite names tables in any case")
    func withoutRowIDInCapitals() throws {
        try store.write { db in
            try db.execute(sql: "CREATE TABLE COUNTRY(code TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL) WITHOUT ROWID")
        }
        #expect(try store.read { db in try db.schemaDifferences(Country.self) } == [.withoutRowID("country")])
    }

    @Test("A Codable model is checked for its table and key")
    func codableModel() throws {
        try store.write { db in try db.execute(sql: "CREATE TABLE item(title TEXT)") }
        let differences = try store.read { db in try db.schemaDifferences(Item.self) }
        #expect(differences == [.primaryKey(expected: "id", actual: [])])
    }
}
