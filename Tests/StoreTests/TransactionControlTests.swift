import Foundation
import SQLiteStoreCore
import Testing

/// Transaction control belongs to the store (DESIGN.md, promise 8): statements that would end
/// or begin a transaction are refused inside `write` and inside migrations, before they run,
/// whatever their spelling; a `Database` kept beyond its closure throws.
@Suite(.timeLimit(.minutes(10))) struct TransactionControlTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: "CREATE TABLE t(id INTEGER PRIMARY KEY, v);")
    }

    static let spellings = [
        "COMMIT", "commit transaction", "END", "End Transaction", "ROLLBACK", "ROLLBACK /* TO */",
        "ROLLBACK -- TO\n", "rollback transaction", "BEGIN", "BEGIN IMMEDIATE", "/* x */ COMMIT",
    ]

    private func count() throws -> Int? { try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } }

    @Test(arguments: spellings)
    func transactionControlIsRefusedInsideWriteBeforeItRuns(spelling: String) throws {
        for path in ["execute", "script", "prepare"] {
            let error = #expect(throws: StoreError.self, "\(path): \(spelling)") {
                try store.write { db in
                    try db.execute(sql: "INSERT INTO t(v) VALUES (1)")
                    switch path {
                    case "execute": try db.execute(sql: spelling)
                    case "script": try db.execute(script: "INSERT INTO t(v) VALUES (2); \(spelling); INSERT INTO t(v) VALUES (3);")
                    default: try db.prepare(sql: spelling).execute()
                    }
                }
            }
            #expect(error?.code == .misuse, "\(path): \(spelling)")
            #expect(error?.sql?.contains(spelling.trimmingCharacters(in: .whitespacesAndNewlines)) == true)
        }
        #expect(try count() == 0, "nothing was committed")
    }

    @Test func statementCachedOutsideAWriteIsRefusedInsideOne() throws {
        try store.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "COMMIT")  // cached, prepared where it is allowed
        }
        #expect(throws: StoreError.self) {
            try store.write { db in
                try db.execute(sql: "INSERT INTO t(v) VALUES (1)")
                try db.execute(sql: "COMMIT")
            }
        }
        #expect(try count() == 0)
    }

    @Test func savepointsAndRollbackToStayAllowed() throws {
        try store.write { db in
            try db.execute(sql: "SAVEPOINT s")
            try db.execute(sql: "INSERT INTO t(v) VALUES (1)")
            try db.execute(sql: "ROLLBACK TO s")
            try db.execute(sql: "ROLLBACK TRANSACTION TO SAVEPOINT s")
            try db.execute(sql: "RELEASE s")
            try db.execute(sql: "INSERT INTO t(v) VALUES (2)")
        }
        #expect(try count() == 1)
    }

    @Test func migrationThatEndsItsTransactionIsRefusedNamingFileAndLineAndChangesNothing() throws {
        for ending in ["ROLLBACK /* TO */;", "ROLLBACK -- TO\n;"] {
            let folder = try directory.writeMigrations(
                ["0001_sneaky.sql": "CREATE TABLE a(x);\n\(ending)\nCREATE TABLE b(x);\n"], folder: "Migrations-\(UUID().uuidString)")
            let migrator = try Migrator(folder: folder)
            let error = #expect(throws: MigrationError.self) { try migrator.migrate(store) }
            guard case .migrationFailed(let failure)? = error else {
                Issue.record("expected a migration failure for \(ending), got \(String(describing: error))")
                continue
            }
            #expect(failure.location.hasSuffix("0001_sneaky.sql"))
            #expect(failure.line == 2)
            #expect(failure.statement?.hasPrefix(ending.prefix(3)) == true)
            #expect((failure.error as? StoreError)?.code == .misuse)
            let tables = try store.read { db in
                try db.fetchRows(sql: "SELECT name FROM sqlite_schema WHERE name IN ('a', 'b')").count
            }
            #expect(tables == 0, "the migration's first statement was rolled back and the rest never ran")
            let recorded = try store.read { db in
                try db.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_schema WHERE name = 'store_migrations'") == 1
                    ? db.fetchValue(Int.self, sql: "SELECT count(*) FROM store_migrations") : 0
            }
            #expect(recorded == 0, "no ledger row")
        }
    }

    @Test func databaseUsedAfterItsClosureReturnedThrowsMisuse() throws {
        nonisolated(unsafe) var escaped: Database?
        try store.write { db in escaped = db }
        let error = #expect(throws: StoreError.self) { try escaped?.execute(sql: "INSERT INTO t(v) VALUES (1)") }
        #expect(error?.code == .misuse)
        _ = try store.read { db in escaped = db }
        #expect(throws: StoreError.self) { try escaped?.fetchRows(sql: "SELECT * FROM t") }
        #expect(try count() == 0)
    }
}
