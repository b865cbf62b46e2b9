import Foundation
import Testing

@testable import SQLiteStoreCore

/// A statement that fails inside a transaction that then commits contributes what SQLite kept
/// of it (DESIGN.md, promise 6), under every capture source.
@Suite(.timeLimit(.minutes(10))) struct FailedStatementTests {
    /// No `FAIL` anywhere in this schema: a failed statement without `OR FAIL` was undone.
    static let schema = """
        CREATE TABLE a(id INTEGER PRIMARY KEY, v TEXT UNIQUE, n INTEGER CHECK (n >= 0));
        CREATE TABLE b(id INTEGER PRIMARY KEY, aid INTEGER REFERENCES a(id) ON DELETE CASCADE);
        CREATE TABLE keep(id INTEGER PRIMARY KEY, aid INTEGER REFERENCES a(id));
        CREATE TABLE log(id INTEGER PRIMARY KEY, what TEXT);
        CREATE TABLE r(id INTEGER PRIMARY KEY, v INTEGER);
        CREATE TRIGGER r_abort AFTER INSERT ON r WHEN NEW.v = 1 BEGIN
            INSERT INTO log(what) VALUES ('abort'); SELECT RAISE(ABORT, 'aborted by trigger'); END;
        CREATE TRIGGER r_rollback AFTER INSERT ON r WHEN NEW.v = 3 BEGIN SELECT RAISE(ROLLBACK, 'rolled back by trigger'); END;
        CREATE TRIGGER r_ignore BEFORE INSERT ON r WHEN NEW.v = 4 BEGIN SELECT RAISE(IGNORE); END;
        INSERT INTO a(id, v, n) VALUES (1, 'one', 5), (2, 'two', 6), (3, 'three', 1);
        INSERT INTO b(id, aid) VALUES (10, 1), (11, 2), (12, 2);
        INSERT INTO keep(id, aid) VALUES (20, 3);
        INSERT INTO r(id, v) VALUES (1, 0);
        """
    /// A trigger that raises `FAIL`, which makes every failure worth asking SQLite about.
    static let failingTrigger = """
        CREATE TRIGGER r_fail AFTER INSERT ON r WHEN NEW.v = 2 BEGIN
            INSERT INTO log(what) VALUES ('fail'); SELECT RAISE(FAIL, 'failed by trigger'); END;
        """

    /// Issue 21's schema: a `WITHOUT ROWID` table that a trigger writes, AUTOINCREMENT tables,
    /// foreign keys, and `FAIL`, `REPLACE` and a writing `BEFORE` trigger elsewhere in the schema.
    static let keyedSchema = """
        CREATE TABLE plain(a INTEGER PRIMARY KEY AUTOINCREMENT, b INTEGER);
        CREATE TABLE kv(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
        CREATE TABLE audit(id INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT);
        CREATE TABLE owner(id INTEGER PRIMARY KEY, plain_id INTEGER REFERENCES plain(a) ON DELETE CASCADE);
        CREATE TABLE f(id INTEGER PRIMARY KEY, u INTEGER UNIQUE ON CONFLICT FAIL);
        CREATE TRIGGER audit_kv AFTER INSERT ON audit BEGIN INSERT OR REPLACE INTO kv VALUES ('audit', NEW.id); END;
        CREATE TRIGGER f_before BEFORE UPDATE ON f BEGIN INSERT INTO audit(what) VALUES ('f'); END;
        INSERT INTO plain(b) VALUES (1), (2), (3), (4);
        """

    /// Runs `sql`, expecting SQLite to refuse it, and goes on.
    private static func failing(_ db: Database, _ sql: String) {
        #expect(throws: StoreError.self, "\(sql) must fail") { try db.execute(sql: sql) }
    }

    @Test(arguments: ChangeCapture.Source.available)
    func abortUndoesTheFailedStatementWithItsTriggersAndCascades(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let changes = try await fixture.recorder.commit { db in
            try db.execute(sql: "INSERT INTO b(id, aid) VALUES (13, 2)")
            Self.failing(db, "INSERT INTO a(id, v, n) VALUES (4, 'four', 4), (5, 'one', 5)")  // UNIQUE on the second row
            Self.failing(db, "UPDATE a SET n = n - 2")  // CHECK on row 3, after rows 1 and 2
            Self.failing(db, "DELETE FROM a WHERE id IN (2, 3)")  // cascades to b 11, 12, 13; then keep's NO ACTION key fails
            Self.failing(db, "UPDATE a SET id = 3 WHERE id = 1")  // INTEGER PRIMARY KEY collision
            Self.failing(db, "INSERT INTO r(id, v) VALUES (5, 0), (6, 1)")  // RAISE(ABORT) after the trigger's log row
        }
        #expect(changes.changes(in: "a").isEmpty)
        #expect(changes.changes(in: "b") == TableChanges(inserted: [13]), "the row the undone cascade deleted stays inserted")
        #expect(changes.changes(in: "r").isEmpty)
        #expect(changes.changes(in: "log").isEmpty)
        #expect(!changes.affectsAllTables)
    }

    @Test(arguments: ChangeCapture.Source.available)
    func failKeepsTheRowsChangedBeforeTheFailure(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema + Self.failingTrigger)
        let changes = try await fixture.recorder.commit { db in
            Self.failing(db, "UPDATE OR FAIL a SET n = n - 2")  // rows 1 and 2 stay updated
            Self.failing(db, "INSERT OR FAIL INTO a(id, v, n) VALUES (4, 'four', 4), (5, 'one', 5)")  // row 4 stays
            Self.failing(db, "INSERT INTO r(id, v) VALUES (5, 0), (6, 2), (7, 0)")  // 5, 6 and 6's log row stay
            Self.failing(db, "INSERT INTO r(id, v) VALUES (8, 1)")  // ABORT still undoes, FAIL in the schema or not
            Self.failing(db, "DELETE FROM a WHERE id IN (2, 3)")
        }
        #expect(changes.changes(in: "a") == TableChanges(inserted: [4], updated: [1, 2]))
        #expect(changes.changes(in: "r") == TableChanges(inserted: [5, 6]))
        #expect(changes.changes(in: "log") == TableChanges(inserted: [1]))
        #expect(changes.changes(in: "b").isEmpty)
        let survivors = try await fixture.store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM r") }
        #expect(survivors == 3, "SQLite kept rows 5 and 6, as published")
    }

    @Test(arguments: ChangeCapture.Source.available)
    func rollbackResolutionEndsTheWriteWhichThrowsAndPublishesNothing(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        var changes = fixture.store.changes().makeAsyncIterator()
        for statement in ["INSERT OR ROLLBACK INTO a(id, v, n) VALUES (7, 'one', 1)", "INSERT INTO r(id, v) VALUES (9, 3)"] {
            let error = #expect(throws: StoreError.self) {
                try fixture.store.write { db in
                    try db.execute(sql: "INSERT INTO b(id, aid) VALUES (14, 1)")
                    do { try db.execute(sql: statement) } catch let error as StoreError where error.code == .constraint {}
                    try db.execute(sql: "INSERT INTO b(id, aid) VALUES (15, 1)")  // would commit on its own
                }
            }
            #expect(error?.code == .misuse, "\(statement)")
        }
        let rows = try await fixture.store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM b") }
        #expect(rows == 3, "nothing was committed")
        try await fixture.store.write { db in try db.execute(sql: "DELETE FROM b WHERE id = 10") }
        #expect(await changes.next()?.changes(in: "b") == TableChanges(deleted: [10]), "the rolled-back writes published nothing")
    }

    @Test(arguments: ChangeCapture.Source.available)
    func ignoreSkipsOnlyTheConflictingRows(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let changes = try await fixture.recorder.commit { db in
            try db.execute(sql: "INSERT OR IGNORE INTO a(id, v, n) VALUES (4, 'four', 4), (5, 'one', 5), (6, 'six', 6)")
            try db.execute(sql: "INSERT INTO r(id, v) VALUES (5, 4), (6, 0)")
        }
        #expect(changes.changes(in: "a") == TableChanges(inserted: [4, 6]))
        #expect(changes.changes(in: "r") == TableChanges(inserted: [6]))
    }

    @Test(arguments: ChangeCapture.Source.available)
    func committedTransactionThatChangedNothingPublishesNothing(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema + Self.failingTrigger)
        var changes = fixture.store.changes().makeAsyncIterator()
        try await fixture.store.write { db in
            Self.failing(db, "UPDATE a SET n = n - 2")
            Self.failing(db, "DELETE FROM a WHERE id IN (2, 3)")
            Self.failing(db, "INSERT INTO r(id, v) VALUES (5, 1)")
            try db.execute(sql: "UPDATE a SET n = n WHERE id = 99")
        }
        try await fixture.store.write { db in try db.execute(sql: "DELETE FROM b WHERE id = 10") }
        let first = await changes.next()
        #expect(first?.changes(in: "b") == TableChanges(deleted: [10]), "the first write published nothing: \(String(describing: first))")
    }

    @Test(arguments: ChangeCapture.Source.available)
    func failedInsertIntoWithoutRowIDTableIsUndone(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.keyedSchema)
        let failing = "INSERT INTO kv(k, v) SELECT 'k' || (a % 3), a FROM plain"  // UNIQUE on the fourth row
        let nothing = try await fixture.recorder.commit { db in Self.failing(db, failing) }
        #expect(nothing.isEmpty, "a transaction that changed nothing publishes nothing: \(nothing)")
        let other = try await fixture.recorder.commit { db in
            try db.execute(sql: "INSERT INTO owner(id, plain_id) VALUES (1, 1)")
            Self.failing(db, failing)
        }
        #expect(other.tables == ["owner"] && !other.affectsAllTables, "\(other)")
        if fixture.hasPreUpdateHook {  // the update hook reports owner as wholly changed: REPLACE is in the schema
            #expect(other.changes(in: "owner") == TableChanges(inserted: [1]), "\(other)")
        }
        let rows = try await fixture.store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM kv") }
        #expect(rows == 0, "SQLite undid the statement")
    }

    @Test(arguments: ChangeCapture.Source.available)
    func failedSchemaStatementPublishesNothingOfItsOwn(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.keyedSchema)
        let changes = try await fixture.recorder.commit { db in
            try db.execute(sql: "UPDATE plain SET b = b + 10 WHERE a = 4")
            var abandoned = try db.cursor(sql: "INSERT INTO owner(id, plain_id) VALUES (1, 1) RETURNING id")
            _ = try abandoned.next()  // the statement stays open: DROP TABLE finds the table locked
            let error = #expect(throws: StoreError.self) { try db.execute(sql: "DROP TABLE f") }
            #expect(error?.code == .locked, "\(String(describing: error))")
        }
        #expect(!changes.affectsAllTables, "\(changes)")
        #expect(changes.tables == ["owner", "plain"], "\(changes)")
        if fixture.hasPreUpdateHook {  // the update hook reports both as wholly changed: REPLACE is in the schema
            #expect(changes.tableChanges == ["owner": TableChanges(inserted: [1]), "plain": TableChanges(updated: [4])], "\(changes)")
        }
    }
}
