import CSQLite
import Foundation
import SQLiteStoreCore
import SQLiteStoreMacros
import Testing

/// Every failure is a `StoreError` with SQLite's codes, message and SQL, and the store keeps working.
@Suite("Errors")
struct ErrorTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: """
                CREATE TABLE parent(id INTEGER PRIMARY KEY);
                CREATE TABLE child(
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    age INTEGER CHECK (age >= 0),
                    parent INTEGER REFERENCES parent(id)
                );
                INSERT INTO parent(id) VALUES (1);
                INSERT INTO child(name, age, parent) VALUES ('taken', 1, 1);
                """)
    }

    /// Proves the store still reads and writes after a failure.
    private func expectStoreWorks(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try store.write { db in try db.execute(sql: "INSERT INTO parent DEFAULT VALUES") }
        let count = try store.read { db in try db.count("parent") }
        #expect(count >= 2, sourceLocation: sourceLocation)
    }

    private func insertChild(name: String?, age: Int?, parent: Int?) throws {
        try store.write { db in
            try db.execute(sql: "INSERT INTO child(name, age, parent) VALUES (?, ?, ?)", arguments: [name, age, parent])
        }
    }

    @Test(
        "Constraint violations carry their extended code, SQLite's message and the SQL without values",
        arguments: [
            // Extended codes (C macros Swift does not import): UNIQUE, NOTNULL, CHECK, FOREIGNKEY.
            ("taken", 5, 1, 2067, "UNIQUE constraint failed: child.name"),
            (nil, 5, 1, 1299, "NOT NULL constraint failed: child.name"),
            ("negative", -1, 1, 275, "CHECK constraint failed"),
            ("orphan", 5, 99, 787, "FOREIGN KEY constraint failed"),
        ] as [(String?, Int?, Int?, Int32, String)])
    func constraint(name: String?, age: Int?, parent: Int?, extendedCode: Int32, message: String) throws {
        let error = #expect(throws: StoreError.self) { try insertChild(name: name, age: age, parent: parent) }
        #expect(error?.code == .constraint)
        #expect(error?.extendedCode == extendedCode)
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        #expect(error?.sql == "INSERT INTO child(name, age, parent) VALUES (?, ?, ?)")
        #expect(try store.read { db in try db.count("child") } == 1)
        try expectStoreWorks()
    }

    @Test("A write lock held by another connection is SQLITE_BUSY after the busy timeout")
    func busy() throws {
        var configuration = StoreConfiguration()
        configuration.busyTimeout = .milliseconds(50)
        let store = try Store(path: directory.path("test.sqlite"), configuration: configuration)
        let other = try RawConnection(path: directory.path("test.sqlite"))
        try other.execute("BEGIN IMMEDIATE")
        let error = #expect(throws: StoreError.self) {
            try store.write { db in try db.execute(sql: "INSERT INTO parent DEFAULT VALUES") }
        }
        #expect(error?.code == .busy)
        #expect(error?.extendedCode == SQLITE_BUSY)
        #expect(error?.message == "database is locked")
        // Readers are not blocked by the other connection's write lock.
        #expect(try store.read { db in try db.count("parent") } == 1)
        try other.execute("ROLLBACK")
        try store.write { db in try db.execute(sql: "INSERT INTO parent DEFAULT VALUES") }
        #expect(try store.read { db in try db.count("parent") } == 2)
    }

    @Test(
        "Malformed SQL is SQLITE_ERROR with SQLite's message and the SQL",
        arguments: [
            ("SELEC 1", "near \"SELEC\": syntax error"),
            ("SELECT * FROM missing", "no such table: missing"),
            ("SELECT nope FROM child", "no such column: nope"),
        ])
    func malformedSQL(sql: String, message: String) throws {
        let error = #expect(throws: StoreError.self) { try store.write { db in try db.execute(sql: sql) } }
        #expect(error?.code == .error)
        #expect(error?.extendedCode == SQLITE_ERROR)
        #expect(error?.message == message)
        #expect(error?.sql == sql)
        #expect(error?.description.contains(sql) == true)
        try expectStoreWorks()
    }

    /// A model whose columns do not fit the `child` table in the ways the tests need.
    struct WrongType: StoreModel {
        static let tableName = "child"
        var id: Int64?
        var name: Int
    }

    struct MissingColumn: StoreModel {
        static let tableName = "child"
        var id: Int64?
        var nickname: String
    }

    @Test("A row that does not decode into the model is SQLITE_MISMATCH naming the column")
    func undecodableRow() throws {
        let wrongType = #expect(throws: StoreError.self) { _ = try store.read { db in try db.fetch(StoreRequest<WrongType>()) } }
        #expect(wrongType?.code == .mismatch)
        #expect(wrongType?.message.contains("name") == true)
        #expect(wrongType?.sql == "SELECT * FROM \"child\" ORDER BY rowid ASC")
        let missing = #expect(throws: StoreError.self) { _ = try store.read { db in try db.fetchOne(MissingColumn.self, id: 1) } }
        #expect(missing?.code == .mismatch)
        #expect(missing?.message.contains("nickname") == true)
        try expectStoreWorks()
    }

    /// A store with one reader, which every read then uses, and a table `child(id, name)` with `names`.
    private func oneReaderStore(named name: String, names: String) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.readerCount = 1
        return try directory.makeStore(
            named: name, configuration: configuration,
            schema: "CREATE TABLE child(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO child(name) VALUES \(names)")
    }

    @Test("A read that stops half-way through a query does not pin its reader to an old snapshot")
    func halfReadQueryReleasesSnapshot() throws {
        let store = try oneReaderStore(named: "one-reader.sqlite", names: "('a'), ('b')")
        #expect(throws: StoreError.self) { _ = try store.read { db in try db.fetch(StoreRequest<WrongType>()) } }
        try store.write { db in try db.execute(sql: "INSERT INTO child(name) VALUES ('c')") }
        #expect(try store.read { db in try db.count("child") } == 3)
        _ = try store.read { db in try db.cachedStatement(sql: "SELECT name FROM child").step() }  // left on its first row
        try store.write { db in try db.execute(sql: "INSERT INTO child(name) VALUES ('d')") }
        #expect(try store.read { db in try db.count("child") } == 4)
    }

    @Test("A model fetch that fails on a later row, on a reader, leaves no statement pinning an old snapshot")
    func halfDecodedModelFetchReleasesSnapshot() throws {
        let store = try oneReaderStore(named: "one-reader-model.sqlite", names: "('a'), ('b'), (NULL)")
        // Rows after the first are stepped without the per-step checks: the failure comes from one of them.
        let error = #expect(throws: StoreError.self) { _ = try store.read { db in try db.fetch(StoreRequest<NamedChild>()) } }
        #expect(error?.code == .mismatch)
        try store.write { db in try db.execute(sql: "INSERT INTO child(name) VALUES ('d')") }
        #expect(try store.read { db in try db.count("child") } == 4)
        #expect(try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM child WHERE name = 'd'") } == 1)
    }

    @Test("A decoding failure inside a write rolls it back; the writer then commits normally")
    func undecodableRowInWrite() throws {
        #expect(throws: StoreError.self) {
            try store.write { db in
                try db.execute(sql: "INSERT INTO parent DEFAULT VALUES")
                _ = try db.fetch(StoreRequest<WrongType>())
            }
        }
        #expect(try store.read { db in try db.count("parent") } == 1)
        try expectStoreWorks()
    }

    @Test("A decoding failure caught inside a write does not stop its commit")
    func caughtDecodingFailure() throws {
        try store.write { db in
            try db.execute(sql: "INSERT INTO child(name) VALUES ('second')")
            #expect(throws: StoreError.self) { _ = try db.fetch(StoreRequest<WrongType>()) }
            try db.execute(sql: "INSERT INTO parent DEFAULT VALUES")
        }
        #expect(try store.read { db in try db.count("child") } == 2)
        #expect(try store.read { db in try db.count("parent") } == 2)
    }

    @Test("Opening a file that is not a database is SQLITE_NOTADB, and the file is left alone")
    func notADatabase() throws {
        let path = directory.path("garbage.sqlite")
        var generator = SeededGenerator()
        let garbage = Data((0..<8_192).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { _ = try Store(path: path) }
        #expect(error?.code == .notADatabase)
        #expect(error?.extendedCode == SQLITE_NOTADB)
        #expect(error?.message == "file is not a database")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage, "seed \(generator.seed)")
        try expectStoreWorks()
    }

    @Test("Opening a path in a missing directory is SQLITE_CANTOPEN naming the path")
    func cannotOpen() throws {
        let path = directory.path("missing/dir/test.sqlite")
        let error = #expect(throws: StoreError.self) { _ = try Store(path: path) }
        #expect(error?.code == .cantOpen)
        #expect(error?.message.contains(path) == true)
    }

    @Test("Writing inside a read is refused by the read-only connection")
    func writeInRead() throws {
        let error = #expect(throws: StoreError.self) {
            try store.read { db in try db.execute(sql: "INSERT INTO parent DEFAULT VALUES") }
        }
        #expect(error?.code == .readOnly)
        try expectStoreWorks()
    }

    @Test("A user error thrown from a write propagates unchanged and rolls back")
    func userError() throws {
        struct Refused: Error, Equatable {}
        #expect(throws: Refused()) {
            try store.write { db in
                try db.execute(sql: "INSERT INTO parent DEFAULT VALUES")
                throw Refused()
            }
        }
        #expect(try store.read { db in try db.count("parent") } == 1)
    }
}

/// A row of `child` read by column index: the fast path of `Database.fetch`.
@StoreModel(table: "child")
private struct NamedChild {
    var id: Int64?
    var name: String
}
