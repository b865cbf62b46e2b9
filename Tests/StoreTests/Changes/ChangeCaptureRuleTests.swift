import Foundation
import Testing

@testable import SQLiteStoreCore

/// The rules of row-level change capture, one test each, under every capture source.
@Suite(.timeLimit(.minutes(10))) struct ChangeCaptureRuleTests {
    static let schema = """
        CREATE TABLE a(id INTEGER PRIMARY KEY, v TEXT UNIQUE);
        CREATE TABLE b(id INTEGER PRIMARY KEY, aid INTEGER REFERENCES a(id) ON DELETE CASCADE);
        CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
        CREATE TABLE log(id INTEGER PRIMARY KEY, what TEXT);
        CREATE TRIGGER a_logged AFTER INSERT ON a BEGIN INSERT INTO log(what) VALUES ('a'); END;
        INSERT INTO a(id, v) VALUES (1, 'one'), (2, 'two'), (3, 'three');
        INSERT INTO b(id, aid) VALUES (10, 1), (11, 2), (12, 2);
        """

    @Test(arguments: ChangeCapture.Source.available) func insertUpdateDeleteAreReportedByTable(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let changes = try await recorder.commit { db in
            try db.execute(sql: "INSERT INTO a(id, v) VALUES (4, 'four')")
            try db.execute(sql: "UPDATE a SET v = 'uno' WHERE id = 1")
            try db.execute(sql: "DELETE FROM b WHERE id = 10")
        }
        #expect(changes.changes(in: "a") == TableChanges(inserted: [4], updated: [1]))
        #expect(changes.changes(in: "b") == TableChanges(deleted: [10]))
        #expect(changes.changes(in: "log") == TableChanges(inserted: [4]), "trigger writes are reported (rows 1-3 logged the setup)")
        #expect(changes.contains(ObjectID(table: "A", rowID: 4)), "table names compare case-insensitively")
        #expect(!changes.contains(ObjectID(table: "a", rowID: 2)))
    }

    @Test(arguments: ChangeCapture.Source.available) func insertedThenDeletedIsNotReported(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let changes = try await recorder.commit { db in
            try db.execute(sql: "INSERT INTO a(id, v) VALUES (5, 'five')")
            try db.execute(sql: "DELETE FROM a WHERE id = 5")
        }
        #expect(changes.changes(in: "a").isEmpty)
    }

    @Test(arguments: ChangeCapture.Source.available) func insertedThenUpdatedIsAnInsert(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let changes = try await recorder.commit { db in
            try db.execute(sql: "INSERT INTO a(id, v) VALUES (5, 'five')")
            try db.execute(sql: "UPDATE a SET v = 'cinq' WHERE id = 5")
        }
        #expect(changes.changes(in: "a") == TableChanges(inserted: [5]))
    }

    @Test(arguments: ChangeCapture.Source.available) func updatedThenDeletedIsADelete(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let changes = try await recorder.commit { db in
            try db.execute(sql: "UPDATE a SET v = 'dos' WHERE id = 2")
            try db.execute(sql: "DELETE FROM a WHERE id = 2")
        }
        #expect(changes.changes(in: "a") == TableChanges(deleted: [2]))
        #expect(changes.changes(in: "b") == TableChanges(deleted: [11, 12]), "foreign key cascades are reported")
    }

    @Test(arguments: ChangeCapture.Source.available) func changingTheRowIDIsADeleteAndAnInsert(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let changes = try await recorder.commit { db in try db.execute(sql: "UPDATE a SET id = 30 WHERE id = 3") }
        if fixture.hasPreUpdateHook {
            #expect(changes.changes(in: "a") == TableChanges(inserted: [30], deleted: [3]))
        } else {
            #expect(changes.changes(in: "a").isWhollyChanged, "the update hook names only the new rowid")
        }
    }

    @Test(arguments: ChangeCapture.Source.available) func rollbackPublishesNothing(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let store = fixture.store
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await store.write { db in
                try db.execute(sql: "DELETE FROM a")
                throw Failure()
            }
        }
        let next = try await recorder.commit { db in try db.execute(sql: "UPDATE a SET v = 'x' WHERE id = 3") }
        #expect(next.changes(in: "a") == TableChanges(updated: [3]), "the rolled-back delete was never published")
        #expect(next.changes(in: "b").isEmpty)
    }

    @Test(arguments: ChangeCapture.Source.available) func rolledBackSavepointDropsItsRowsAndReleasedKeepsThem(source: ChangeCapture.Source)
        async throws
    {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        struct Failure: Error {}
        let changes = try await recorder.commit { db in
            try db.execute(sql: "INSERT INTO a(id, v) VALUES (6, 'kept')")
            _ = try? db.transaction {
                try db.execute(sql: "INSERT INTO a(id, v) VALUES (7, 'dropped')")
                try db.execute(sql: "DELETE FROM b WHERE id = 10")
                throw Failure()
            }
            try db.transaction {
                try db.execute(sql: "INSERT INTO a(id, v) VALUES (8, 'released')")
                try db.execute(sql: "SAVEPOINT raw")
                try db.execute(sql: "UPDATE a SET v = 'gone' WHERE id = 1")
                try db.execute(sql: "ROLLBACK TO raw")
                try db.execute(sql: "RELEASE raw")
            }
        }
        #expect(changes.changes(in: "a") == TableChanges(inserted: [6, 8]))
        #expect(changes.changes(in: "b").isEmpty)
    }

    @Test(arguments: ChangeCapture.Source.available) func readOnlyTransactionPublishesNothing(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let store = fixture.store
        _ = try await store.write { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM a") }
        let next = try await recorder.commit { db in try db.execute(sql: "DELETE FROM b WHERE id = 12") }
        #expect(next.changes(in: "b") == TableChanges(deleted: [12]))
        #expect(next.changes(in: "a").isEmpty)
    }

    @Test(arguments: ChangeCapture.Source.available) func truncatingDeleteReportsEveryRow(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let changes = try await recorder.commit { db in try db.execute(sql: "DELETE FROM b") }
        #expect(changes.changes(in: "b") == TableChanges(deleted: [10, 11, 12]))
    }

    @Test(arguments: ChangeCapture.Source.available) func replaceReportsTheRowsItDeletes(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let changes = try await recorder.commit { db in
            try db.execute(sql: "INSERT OR REPLACE INTO a(id, v) VALUES (9, 'one')")  // deletes row 1 (unique v)
            try db.execute(sql: "REPLACE INTO a(id, v) VALUES (2, 'deux')")  // replaces row 2 in place
        }
        if fixture.hasPreUpdateHook {
            #expect(changes.changes(in: "a") == TableChanges(inserted: [9], updated: [2], deleted: [1]))
        } else {
            #expect(changes.changes(in: "a").isWhollyChanged, "the update hook does not report the rows REPLACE deletes")
        }
        #expect(changes.changes(in: "b") == TableChanges(deleted: [10, 11, 12]), "REPLACE cascades to children")
    }

    @Test(arguments: ChangeCapture.Source.available) func withoutRowIDTablesAreWhollyChanged(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let changes = try await recorder.commit { db in try db.execute(sql: "INSERT INTO w VALUES ('k', 1)") }
        #expect(changes.changes(in: "w").isWhollyChanged)
        #expect(changes.changes(in: "a").isEmpty)
    }

    @Test(arguments: ChangeCapture.Source.available) func schemaChangesAffectAllTables(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let recorder = fixture.recorder
        let changes = try await recorder.commit { db in try db.execute(sql: "ALTER TABLE a ADD COLUMN extra TEXT") }
        #expect(changes.affectsAllTables)
        #expect(changes.touches("b"))
    }

    @Test(arguments: ChangeCapture.Source.available) func vacuumAffectsAllTables(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let store = fixture.store
        var iterator = store.changes().makeAsyncIterator()
        try store.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        let changes = await iterator.next()
        #expect(changes?.affectsAllTables == true)
    }
}
