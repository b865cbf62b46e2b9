import Foundation
import Testing

@testable import SQLiteStoreCore

/// Random transactions against three related tables; after each one, the published changes
/// must equal the difference between snapshots of the tables taken before and after.
@Suite(.timeLimit(.minutes(10))) struct ChangeCaptureRandomizedTests {
    static let transactionCount = 3_000  // per capture source
    static let tables = ["parent", "child", "plain"]

    @Test(arguments: ChangeCapture.Source.available)
    func publishedChangesMatchSnapshotDifferences(source: ChangeCapture.Source) async throws {
        let directory = try TemporaryDirectory()
        var configuration = StoreConfiguration()
        configuration.changeCaptureSource = source
        let store = try directory.makeStore(
            configuration: configuration,
            schema: """
                CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT UNIQUE, v INTEGER);
                CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE, v INTEGER);
                CREATE TABLE plain(id INTEGER PRIMARY KEY, v INTEGER);
                """)
        let recorder = try ChangeRecorder(store: store, tables: Set(Self.tables))
        var random = SeededGenerator.changeCapture()
        let seed = random.seed
        var mismatches: [String] = []

        for step in 0..<Self.transactionCount where mismatches.count < 5 {
            let before = try snapshot(store)
            let script = RandomTransaction.make(using: &random)
            let committed = try await run(script, on: store)
            let after = try snapshot(store)
            guard committed else {
                if before != after { mismatches.append("step \(step): a rolled-back transaction changed rows") }
                continue
            }
            let published = try await recorder.next()
            for table in Self.tables {
                let changes = published.changes(in: table)
                // The update hook cannot name the rows REPLACE deletes, nor a row's old rowid: the table is wholly changed.
                if source == .updateHook && changes.isWhollyChanged { continue }
                if let problem = compare(changes, before[table] ?? [:], after[table] ?? [:]) {
                    mismatches.append("step \(step), table \(table): \(problem)\n  script: \(script.statements)")
                }
            }
        }
        #expect(mismatches.isEmpty, "seed \(seed) (STORE_TEST_SEED=\(seed) replays it):\n\(mismatches.joined(separator: "\n"))")
    }

    /// Runs the script in one write plus the recorder's tick; `false` when it rolled back.
    private func run(_ script: RandomTransaction, on store: Store) async throws -> Bool {
        struct Rollback: Error {}
        do {
            try await store.write { db in
                for statement in script.statements {
                    try statement.run(on: db)
                }
                if script.rollsBack { throw Rollback() }
                try db.execute(sql: "UPDATE tick SET n = n + 1 WHERE id = 1")
            }
            return true
        } catch is Rollback {
            return false
        }
    }

    private typealias TableSnapshot = [Int64: [DatabaseValue]]

    private func snapshot(_ store: Store) throws -> [String: TableSnapshot] {
        try store.read { db in
            var tables: [String: TableSnapshot] = [:]
            for table in Self.tables {
                var rows: TableSnapshot = [:]
                for row in try db.fetchRows(sql: "SELECT rowid, * FROM \(table)") {
                    if case .integer(let id) = row[0] { rows[id] = Array(row.values.dropFirst()) }
                }
                tables[table] = rows
            }
            return tables
        }
    }

    /// Inserted and deleted must be exact; updated must cover every row whose values changed
    /// and list only rows present before and after (a write may leave values as they were).
    private func compare(_ changes: TableChanges, _ before: TableSnapshot, _ after: TableSnapshot) -> String? {
        let inserted = Set(after.keys).subtracting(before.keys)
        let deleted = Set(before.keys).subtracting(after.keys)
        let common = Set(before.keys).intersection(after.keys)
        let modified = Set(common.filter { before[$0] != after[$0] })
        if changes.inserted != inserted { return "inserted \(changes.inserted.sorted()) expected \(inserted.sorted())" }
        if changes.deleted != deleted { return "deleted \(changes.deleted.sorted()) expected \(deleted.sorted())" }
        if !modified.isSubset(of: changes.updated) || !changes.updated.isSubset(of: common) {
            return "updated \(changes.updated.sorted()) must cover \(modified.sorted()) within \(common.count) common rows"
        }
        if changes.isWhollyChanged { return "unexpectedly wholly changed" }
        return nil
    }
}

/// A random transaction: statements, savepoints, and whether it ends in a rollback.
struct RandomTransaction {
    enum Statement: CustomStringConvertible {
        case sql(String)
        case savepoint([Statement], rollsBack: Bool)

        func run(on db: Database) throws {
            switch self {
            case .sql(let sql):
                // Constraint failures (a child of a missing parent, …) are part of the game: the statement
                // fails, its changes are undone by SQLite, and the transaction goes on.
                do { try db.execute(sql: sql) } catch let error as StoreError where error.code == .constraint {}
            case .savepoint(let statements, let rollsBack):
                struct Undo: Error {}
                _ = try? db.transaction {
                    for statement in statements { try statement.run(on: db) }
                    if rollsBack { throw Undo() }
                }
            }
        }

        var description: String {
            switch self {
            case .sql(let sql): sql
            case .savepoint(let statements, let rollsBack): "SAVEPOINT[\(statements) \(rollsBack ? "ROLLBACK" : "RELEASE")]"
            }
        }
    }

    let statements: [Statement]
    let rollsBack: Bool

    static func make(using random: inout SeededGenerator) -> RandomTransaction {
        let count = Int.random(in: 1...5, using: &random)
        let statements = (0..<count).map { _ in statement(using: &random, depth: 0) }
        return RandomTransaction(statements: statements, rollsBack: Int.random(in: 0..<10, using: &random) == 0)
    }

    private static func statement(using random: inout SeededGenerator, depth: Int) -> Statement {
        let id = Int.random(in: 1...40, using: &random)
        let other = Int.random(in: 1...40, using: &random)
        let value = Int.random(in: 0...1_000, using: &random)
        let name = "n\(Int.random(in: 1...25, using: &random))"
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<15: return .sql("INSERT OR IGNORE INTO parent(id, name, v) VALUES (\(id), '\(name)', \(value))")
        case 15..<25: return .sql("INSERT OR REPLACE INTO parent(id, name, v) VALUES (\(id), '\(name)', \(value))")
        case 25..<40: return .sql("INSERT OR IGNORE INTO child(id, parent_id, v) VALUES (\(id * 3), \(other), \(value))")
        case 40..<52: return .sql("INSERT OR REPLACE INTO plain(id, v) VALUES (\(id), \(value))")
        case 52..<64: return .sql("UPDATE \(["parent", "child", "plain"][id % 3]) SET v = \(value) WHERE id % 7 = \(other % 7)")
        case 64..<66: return .sql("UPDATE plain SET id = \(other + 100) WHERE id = \(id)")
        case 66..<76: return .sql("DELETE FROM \(["parent", "child", "plain"][id % 3]) WHERE id = \(other) OR id = \(other * 3)")
        case 76..<80: return .sql("DELETE FROM plain")
        case 80..<82: return .sql("DELETE FROM child")
        case 82..<85: return .sql("INSERT INTO plain(v) SELECT v FROM child LIMIT 3")
        default:
            guard depth < 2 else { return .sql("DELETE FROM parent WHERE id = \(id)") }
            let inner = (0..<Int.random(in: 1...3, using: &random)).map { _ in statement(using: &random, depth: depth + 1) }
            return .savepoint(inner, rollsBack: Bool.random(using: &random))
        }
    }
}
