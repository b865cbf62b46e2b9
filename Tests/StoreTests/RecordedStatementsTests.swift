import SQLiteStoreCore
import Testing

/// `Database.recordingStatements`: the statements a piece of code runs, for tests that
/// count queries.
@Suite("Recording the statements a connection runs")
struct RecordedStatementsTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: """
                CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT NOT NULL);
                CREATE TABLE log(id INTEGER PRIMARY KEY, noteID INTEGER);
                CREATE TRIGGER logged AFTER INSERT ON note BEGIN INSERT INTO log(noteID) VALUES (new.id); END;
                """)
    }

    @Test("Each statement once, in order, as prepared: bound values are not in the SQL; triggers' statements are not recorded")
    func statementsInOrderWithoutValuesOrTriggers() throws {
        let secret = "a value that must not appear"
        let (count, statements) = try store.write { db in
            try db.recordingStatements {
                try db.execute(sql: "INSERT INTO note(body) VALUES (?)", arguments: [secret])
                return try db.fetchValue(Int.self, sql: "SELECT count(*) FROM log") ?? -1
            }
        }
        #expect(count == 1, "the trigger ran")
        #expect(statements == ["INSERT INTO note(body) VALUES (?)", "SELECT count(*) FROM log"])
    }

    @Test("Calls nest: the inner call's statements are the outer's too; nothing is recorded after the outer call")
    func nested() throws {
        let (outer, inner, after) = try store.read { db in
            let (inner, outer) = try db.recordingStatements {
                _ = try db.fetchRows(sql: "SELECT 1")
                let inner = try db.recordingStatements { _ = try db.fetchRows(sql: "SELECT 2") }.statements
                _ = try db.fetchRows(sql: "SELECT 3")
                return inner
            }
            _ = try db.fetchRows(sql: "SELECT 4")
            let after = db.recordingStatements { () }.statements
            return (outer, inner, after)
        }
        #expect(outer == ["SELECT 1", "SELECT 2", "SELECT 3"])
        #expect(inner == ["SELECT 2"])
        #expect(after.isEmpty)
    }
}
