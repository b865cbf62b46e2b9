import SQLiteStoreCore
import Testing

/// `db.check(_:)` reports a declared relationship whose foreign key the schema lacks.
@Suite("Relationships in the schema check")
struct RelationshipSchemaCheckTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore()
    }

    @Test("Every declaration kind passes against the schema that declares its foreign keys")
    func matchingSchema() throws {
        try store.write { db in try db.execute(script: RelationshipSchema.script()) }
        try store.read { db in
            try db.check(TodoList.self)
            try db.check(Chore.self)
            try db.check(Tag.self)
        }
    }

    @Test("A missing foreign key is listed in the same error as the other differences")
    func missingForeignKey() throws {
        try store.write { db in
            try db.execute(
                script: """
                    CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE chore(id INTEGER PRIMARY KEY, list_id INTEGER, title TEXT NOT NULL);
                    CREATE TABLE tag(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE chore_tag(chore_id INTEGER REFERENCES chore(id), tag_id INTEGER REFERENCES list(id));
                    """)
        }
        let differences = try store.read { db in try db.schemaDifferences(Chore.self) }
        #expect(
            differences == [
                .missingColumn("done"),
                .missingForeignKey(relationship: "list", link: Chore.list.link),
                .missingForeignKey(relationship: "tags", link: Chore.tags.target),
            ])
        let error = #expect(throws: StoreError.self) { try store.read { db in try db.check(Chore.self) } }
        #expect(error?.code == .mismatch)
        #expect(error?.message.contains("relationship list needs the foreign key chore.list_id → list.id") == true)
        #expect(error?.message.components(separatedBy: "\n").count == 4)
        let inverse = try store.read { db in try db.schemaDifferences(TodoList.self) }
        #expect(inverse == [.missingForeignKey(relationship: "chores", link: Chore.list.link)])
    }

    @Test("A key that refers to another column, or a composite key, does not match; one that names no column refers to the primary key")
    func keyShapes() throws {
        try store.write { db in
            try db.execute(
                script: """
                    CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                    CREATE TABLE chore(id INTEGER PRIMARY KEY, list_id INTEGER REFERENCES list(name), title TEXT NOT NULL,
                                       done INTEGER NOT NULL);
                    CREATE TABLE tag(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE chore_tag(chore_id INTEGER REFERENCES chore, tag_id INTEGER, x INTEGER,
                                           FOREIGN KEY(tag_id, x) REFERENCES tag(id, name));
                    """)
        }
        let differences = try store.read { db in try db.schemaDifferences(Chore.self) }
        #expect(
            differences == [
                .missingForeignKey(relationship: "list", link: Chore.list.link),
                .missingForeignKey(relationship: "tags", link: Chore.tags.target),
            ])
    }
}
