import Foundation
import SQLiteStoreCore
import Testing

/// Writes commit on return and roll back on throw; `transaction { }` nests savepoints.
@Suite("Transactions")
struct TransactionTests {
    struct Refused: Error, Equatable {}

    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema)
    }

    private func titles() throws -> [String] {
        try store.read { db in
            try db.fetchRows(sql: "SELECT title FROM item ORDER BY id").map { try $0.decode(String.self, column: "title") }
        }
    }

    private func insert(_ title: String, in db: Database) throws {
        try db.execute(sql: "INSERT INTO item(title) VALUES (?)", arguments: [title])
    }

    @Test("A write commits when its closure returns and hands back the closure's value")
    func commitOnReturn() throws {
        let value = try store.write { db in
            try insert("kept", in: db)
            return db.lastInsertedRowID
        }
        #expect(value == 1)
        #expect(try titles() == ["kept"])
    }

    @Test("A write rolls back everything when its closure throws")
    func rollbackOnThrow() throws {
        #expect(throws: Refused()) {
            try store.write { db in
                try insert("gone", in: db)
                try db.transaction { try insert("gone too", in: db) }
                throw Refused()
            }
        }
        #expect(try titles().isEmpty)
    }

    @Test("Async writes commit on return and roll back on throw")
    func asyncCommitAndRollback() async throws {
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('kept')") }
        await #expect(throws: Refused()) {
            try await store.write { db in
                try db.execute(sql: "INSERT INTO item(title) VALUES ('gone')")
                throw Refused()
            }
        }
        #expect(try await store.read { db in try db.count("item") } == 1)
    }

    @Test("An inner savepoint that throws rolls back only itself")
    func innerRollback() throws {
        try store.write { db in
            try insert("outer before", in: db)
            #expect(throws: Refused()) {
                try db.transaction {
                    try insert("inner", in: db)
                    throw Refused()
                }
            }
            try insert("outer after", in: db)
        }
        #expect(try titles() == ["outer before", "outer after"])
    }

    @Test("Savepoints nest three deep: a released level keeps its rows, a failed one loses its own and its children's")
    func deepNesting() throws {
        let failedLevel = try store.write { db in
            try db.transaction {
                try insert("level 1", in: db)
                try db.transaction {
                    try insert("level 2 kept", in: db)
                    try db.transaction { try insert("level 3 kept", in: db) }
                }
                return Result {
                    try db.transaction {
                        try insert("level 2 lost", in: db)
                        try db.transaction { try insert("level 3 lost with its parent", in: db) }
                        throw Refused()
                    }
                }
            }
        }
        #expect(throws: Refused()) { try failedLevel.get() }
        #expect(try titles() == ["level 1", "level 2 kept", "level 3 kept"])
    }

    @Test("A savepoint returns its closure's value")
    func savepointValue() throws {
        let value = try store.write { db in try db.transaction { 42 } }
        #expect(value == 42)
    }

    @Test("A constraint failure inside a savepoint can be caught and the write still commits")
    func recoverInsideSavepoint() throws {
        try store.write { db in
            try insert("unique", in: db)
            try db.execute(sql: "CREATE UNIQUE INDEX title_unique ON item(title)")
            #expect(throws: StoreError.self) { try db.transaction { try insert("unique", in: db) } }
            try insert("another", in: db)
        }
        #expect(try titles() == ["unique", "another"])
    }

    @Test("A write closure that ends the transaction itself is misuse")
    func closureEndsTransaction() throws {
        let error = #expect(throws: StoreError.self) {
            try store.write { db in
                try insert("committed by hand", in: db)
                try db.execute(sql: "COMMIT")
            }
        }
        #expect(error?.code == .misuse)
        try store.write { db in try insert("next write works", in: db) }
        #expect(try titles().contains("next write works"))
    }
}
