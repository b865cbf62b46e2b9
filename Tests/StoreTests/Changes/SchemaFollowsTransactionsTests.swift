import Foundation
import Testing

@testable import SQLiteStoreCore

/// What capture derives from the schema follows rollbacks, savepoints, statement
/// re-preparation and other processes (DESIGN.md, promise 7), under every capture source.
@Suite(.timeLimit(.minutes(10))) struct SchemaFollowsTransactionsTests {
    static let schema = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, u INTEGER);
        CREATE TABLE kv(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
        INSERT INTO kv VALUES ('a', 1);
        """
    struct Undo: Error {}

    @Test(arguments: ChangeCapture.Source.available)
    func withoutRowIDFactsFollowARolledBackDrop(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        await #expect(throws: Undo.self) {
            try await fixture.store.write { db in
                try db.execute(sql: "DROP TABLE kv")
                try db.execute(sql: "INSERT INTO t(u) VALUES (1)")  // capture reloads its facts: no kv
                throw Undo()
            }
        }
        let changes = try await fixture.recorder.commit { db in try db.execute(sql: "INSERT INTO kv VALUES ('b', 2)") }
        #expect(changes.changes(in: "kv") == TableChanges(isWhollyChanged: true))
        let both = try await fixture.recorder.commit { db in
            try db.execute(sql: "INSERT INTO kv VALUES ('c', 3)")
            try db.execute(sql: "DELETE FROM kv WHERE k = 'c'")
        }
        #expect(both.changes(in: "kv").isWhollyChanged, "an insert then a delete of one key is still a change of the table")
    }

    @Test(arguments: ChangeCapture.Source.available)
    func withoutRowIDFactsFollowRollbackToASavepoint(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        let changes = try await fixture.recorder.commit { db in
            _ = try? db.transaction {
                try db.execute(sql: "DROP TABLE kv")
                try db.execute(sql: "CREATE TABLE kv(id INTEGER PRIMARY KEY, v)")
                throw Undo()
            }
            try db.execute(sql: "INSERT INTO kv VALUES ('b', 2)")
        }
        #expect(changes.changes(in: "kv") == TableChanges(isWhollyChanged: true))
        #expect(!changes.affectsAllTables, "the schema change was rolled back to the savepoint")
    }

    @Test(arguments: ChangeCapture.Source.available)
    func rowidTableCreatedAfterARolledBackWithoutRowIDOneIsReportedByRow(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        await #expect(throws: Undo.self) {
            try await fixture.store.write { db in
                try db.execute(sql: "CREATE TABLE n(k TEXT PRIMARY KEY) WITHOUT ROWID")
                try db.execute(sql: "INSERT INTO n VALUES ('x')")  // capture reloads its facts: n is WITHOUT ROWID
                throw Undo()
            }
        }
        _ = try await fixture.recorder.commit { db in try db.execute(sql: "CREATE TABLE n(id INTEGER PRIMARY KEY, k TEXT)") }
        let changes = try await fixture.recorder.commit { db in try db.execute(sql: "INSERT INTO n(k) VALUES ('x')") }
        #expect(changes.changes(in: "n") == TableChanges(inserted: [1]))
    }

    @Test(arguments: ChangeCapture.Source.available)
    func cachedIfExistsStatementIsClassifiedAgainWhenSQLitePreparesItAgain(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema)
        for (drop, create) in [
            ("DROP INDEX IF EXISTS t_u", "CREATE INDEX t_u ON t(u)"),
            ("DROP TABLE IF EXISTS gone", "CREATE TABLE gone(x)"),
        ] {
            let noOp = try await fixture.recorder.commit { db in try db.execute(sql: drop) }
            #expect(noOp.isEmpty, "\(drop) of nothing changes nothing")
            _ = try await fixture.recorder.commit { db in try db.execute(sql: create) }
            let dropped = try await fixture.recorder.commit { db in try db.execute(sql: drop) }  // the cached statement
            #expect(dropped.affectsAllTables, "\(drop) dropped something this time")
        }
    }

    @Test(arguments: ChangeCapture.Source.available)
    func externalCommitIsPublishedBeforeTheNextOwnWriteWithFreshSchemaFacts(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema) { $0.externalChangePollInterval = nil }
        var changes = fixture.store.changes().makeAsyncIterator()
        let other = try RawConnection(path: fixture.directory.path("test.sqlite"))
        try other.execute("CREATE TABLE ext(k TEXT PRIMARY KEY, v) WITHOUT ROWID; INSERT INTO t(u) VALUES (7);")
        try await fixture.store.write { db in try db.execute(sql: "INSERT INTO ext VALUES ('k', 1)") }
        let first = await changes.next()
        let second = await changes.next()
        #expect(first?.isExternal == true && first?.affectsAllTables == true, "the external commit comes first")
        #expect(second?.isExternal == false)
        #expect(second?.changes(in: "ext") == TableChanges(isWhollyChanged: true), "ext is known to be WITHOUT ROWID")
    }

    @Test(arguments: ChangeCapture.Source.available)
    func internalTablesAreNeverPublishedAndAnalyzeChangesNothing(source: ChangeCapture.Source) async throws {
        let fixture = try CaptureFixture(source, schema: Self.schema + "CREATE TABLE auto(id INTEGER PRIMARY KEY AUTOINCREMENT, v);")
        let insert = try await fixture.recorder.commit { db in try db.execute(sql: "INSERT INTO auto(v) VALUES (1)") }
        #expect(insert.tables == ["auto"], "sqlite_sequence is SQLite's: \(insert)")
        let analyze = try await fixture.recorder.commit { db in try db.execute(sql: "ANALYZE") }
        #expect(analyze.isEmpty, "ANALYZE changes no user row: \(analyze)")
        let again = try await fixture.recorder.commit { db in try db.execute(sql: "ANALYZE") }
        #expect(again.isEmpty)
    }
}
