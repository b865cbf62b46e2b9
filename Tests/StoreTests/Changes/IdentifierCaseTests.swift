import Testing

@testable import SQLiteStoreCore

/// Names compare as SQLite compares them: ASCII letters in any case, every other character by
/// its bytes. `"CAFÉS"` and `"cafés"` are two tables of one database (SQLite does not fold
/// `É`), while `"Notes"` and `"notes"` are one; Swift's `lowercased()` folds both pairs.
@Suite(.timeLimit(.minutes(10))) struct IdentifierCaseTests {
    /// Two pairs of twins, each with one `WITHOUT ROWID` table: capture must not take one
    /// twin's rows for the other's, nor report one as the other wholly changed.
    static let schema = """
        CREATE TABLE "CAFÉS"(id INTEGER PRIMARY KEY, v TEXT);
        CREATE TABLE "cafés"(id INTEGER PRIMARY KEY, v TEXT);
        CREATE TABLE "THÉS"(k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
        CREATE TABLE "thés"(id INTEGER PRIMARY KEY, v TEXT);
        CREATE TABLE "ÉTÉS"(id INTEGER PRIMARY KEY, v TEXT);
        CREATE TABLE "étés"(k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
        CREATE TABLE Notes(id INTEGER PRIMARY KEY, v TEXT);
        """

    @Test(arguments: ChangeCapture.Source.available) func aWriteIsReportedForItsTableNotForItsTwin(source: ChangeCapture.Source)
        async throws
    {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let toUpper = try await fixture.recorder.commit { db in try db.execute(sql: #"INSERT INTO "CAFÉS"(id, v) VALUES (1, 'upper')"#) }
        #expect(toUpper.changes(in: "CAFÉS") == TableChanges(inserted: [1]))
        #expect(!toUpper.touches("cafés"), "the lowercase twin was not written")
        #expect(toUpper.tables == ["caf\u{C9}s"], "the name is folded as SQLite folds it: ASCII letters only")
        let toLower = try await fixture.recorder.commit { db in try db.execute(sql: #"INSERT INTO "cafés"(id, v) VALUES (2, 'lower')"#) }
        #expect(toLower.changes(in: "cafés") == TableChanges(inserted: [2]))
        #expect(!toLower.touches("CAFÉS"))
    }

    @Test(arguments: ChangeCapture.Source.available) func aTwinWithoutRowIDIsNotTakenForTheWrittenTable(source: ChangeCapture.Source)
        async throws
    {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let changes = try await fixture.recorder.commit { db in
            try db.execute(sql: #"INSERT INTO "thés"(id, v) VALUES (1, 'rowid twin')"#)
            try db.execute(sql: #"INSERT INTO "ÉTÉS"(id, v) VALUES (1, 'rowid twin')"#)
        }
        #expect(changes.changes(in: "thés") == TableChanges(inserted: [1]), "its rows, not its WITHOUT ROWID twin's whole table")
        #expect(changes.changes(in: "ÉTÉS") == TableChanges(inserted: [1]), "its rows, not its WITHOUT ROWID twin's whole table")
        #expect(!changes.touches("THÉS"))
        #expect(!changes.touches("étés"))
    }

    @Test(arguments: ChangeCapture.Source.available) func asciiCaseStillNamesOneTable(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let changes = try await fixture.recorder.commit { db in try db.execute(sql: "INSERT INTO NOTES(id, v) VALUES (1, 'x')") }
        #expect(changes.changes(in: "notes") == TableChanges(inserted: [1]))
        #expect(changes.changes(in: "Notes") == TableChanges(inserted: [1]))
        #expect(changes.contains(ObjectID(table: "nOTES", rowID: 1)))
    }

    @Test func changesSubscribedByNameReachTheirTableOnly() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: Self.schema + "CREATE TABLE sentinel(id INTEGER PRIMARY KEY);")
        // Each also follows a sentinel table, written last: a subscriber that missed its own
        // table's write gets the sentinel's first, and the test fails rather than waits.
        var upper = store.changes(in: ["CAFÉS", "sentinel"]).makeAsyncIterator()
        var lower = store.changes(in: ["cafés", "sentinel"]).makeAsyncIterator()
        var notes = store.changes(in: ["notes", "sentinel"]).makeAsyncIterator()
        try await store.write { db in try db.execute(sql: #"INSERT INTO "CAFÉS"(id, v) VALUES (1, 'upper')"#) }
        try await store.write { db in try db.execute(sql: #"INSERT INTO "cafés"(id, v) VALUES (1, 'lower')"#) }
        try await store.write { db in try db.execute(sql: "INSERT INTO NOTES(id, v) VALUES (1, 'x')") }
        try await store.write { db in try db.execute(sql: "INSERT INTO sentinel(id) VALUES (1)") }
        #expect(await upper.next()?.tableChanges == ["caf\u{C9}s": TableChanges(inserted: [1])])
        #expect(await lower.next()?.tableChanges == ["caf\u{E9}s": TableChanges(inserted: [1])], "its own table's write, first")
        #expect(await notes.next()?.tableChanges == ["notes": TableChanges(inserted: [1])])
    }

    @Test(arguments: ChangeCapture.Source.available) func rollingBackToASavepointFindsItByItsOwnName(source: ChangeCapture.Source)
        async throws
    {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let changes = try await fixture.recorder.commit { db in
            try db.execute(sql: #"SAVEPOINT "SP_É""#)
            try db.execute(sql: "INSERT INTO notes(id, v) VALUES (1, 'rolled back')")
            try db.execute(sql: #"SAVEPOINT "sp_é""#)
            try db.execute(sql: "INSERT INTO notes(id, v) VALUES (2, 'rolled back')")
            // SQLite rolls back to the outer savepoint: "sp_é" is another name.
            try db.execute(sql: #"ROLLBACK TO "sp_É""#)
            try db.execute(sql: #"RELEASE "sp_É""#)
            try db.execute(sql: "INSERT INTO notes(id, v) VALUES (3, 'kept')")
        }
        #expect(changes.changes(in: "notes") == TableChanges(inserted: [3]))
        let rows = try await fixture.store.read { db in try db.fetchRows(sql: "SELECT id FROM notes") }
        #expect(rows.map { $0[0] } == [.integer(3)], "what SQLite kept")
    }

    @Test func rowColumnsAreFoundByTheirOwnName() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore()
        let row = try #require(try store.read { db in try db.fetchRows(sql: #"SELECT 1 AS "É", 2 AS "é", 3 AS Title"#) }.first)
        #expect(row["é"] == .integer(2))
        #expect(row["É"] == .integer(1))
        #expect(row["TITLE"] == .integer(3))
    }

    @Test func theRowIDNameOfOneTwinIsNotTheOther() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: #"CREATE TABLE "ÉS"(rowid TEXT, v TEXT); CREATE TABLE "és"(v TEXT); CREATE TABLE Ns(rowid TEXT);"#)
        // "és" first: its name, cached under "ÉS" too, would read ÉS's column named rowid.
        let names = try store.write { db in try ["és", "ÉS", "ns", "NS"].map { try db.rowIDName(of: $0) } }
        #expect(names == ["rowid", "_rowid_", "_rowid_", "_rowid_"], "a column named rowid hides the rowid under that name")
    }
}
