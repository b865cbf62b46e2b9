import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Random transactions against controllers with hundreds of sections, so that the section
/// counts' blocks (64 sections each) split, empty and refill as sections come and go: by a
/// related column (lists renamed onto each other's names, deleted with their items) and by
/// the items' own column. After every transaction each controller's change sets must replay
/// its previous results into a fresh SQL read. `FRC_SEED` replays a seed;
/// `FRC_WIDE_TRANSACTIONS` sets the number of transactions (600).
@MainActor @Suite(.timeLimit(.minutes(15))) struct WideSectionsRandomizedTests {
    let directory: TemporaryDirectory
    let store: Store
    let other: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: TodoItem.schema)
        other = try Store(path: directory.path("test.sqlite"))
    }

    static let requests: [StoreRequest<TodoItem>] = [
        StoreRequest<TodoItem>().order(TodoItem.list.name.ascending, Column("title").ascending)
            .sectioned(by: TodoItem.list.name.column),
        StoreRequest<TodoItem>().order(Column("score").descending).sectioned(by: Column("score")).batchSize(9),
        StoreRequest<TodoItem>().filter(Column("score") >= 200)
            .order(TodoItem.list.name.descending, Column("score").ascending).sectioned(by: TodoItem.list.name.column),
    ]

    @Test func changeSetsReplayIntoFreshReads() async throws {
        let run = RandomizedRun("WideSectionsRandomizedTests", transactionsFrom: "FRC_WIDE_TRANSACTIONS", default: 600)
        let (seed, transactions) = (run.seed, run.transactions)
        var random = run.random
        try await fill(&random)
        var checkers: [ReplayChecker<TodoItem>] = []
        for request in Self.requests {
            let controller = FetchedResultsController(store: store, request: request)
            try controller.performFetch()
            try await controller.waitUntilCurrent()
            #expect(controller.sections.count > 64 * 3, "the sections span several blocks")
            checkers.append(ReplayChecker(controller))
        }
        for step in 0..<transactions {
            let statements = (0..<Int.random(in: 1...4, using: &random)).map { _ in WideStatements.statement(&random) }
            try await RandomCommit.run(statements, store: store, other: other, &random)
            for (number, checker) in checkers.enumerated() {
                guard try await checker.check(store, "seed \(seed), step \(step), controller \(number)") else { return }
            }
        }
    }

    /// Lists with distinct names, and items spread over them with scores from a wide range.
    private func fill(_ random: inout SeededGenerator) async throws {
        let scores = (0..<WideStatements.items).map { _ in WideStatements.seededScore(&random) }
        let lists = (0..<WideStatements.items).map { _ in Int64.random(in: 1...Int64(WideStatements.lists), using: &random) }
        try await store.write { db in
            for list in 1...WideStatements.lists {
                try db.execute(sql: "INSERT INTO list(id, name) VALUES (?, ?)", arguments: [list, WideStatements.name(list)])
            }
            for item in 0..<WideStatements.items {
                try db.execute(
                    sql: "INSERT INTO item(title, list_id, score) VALUES (?, ?, ?)",
                    arguments: ["t\(item % 5)", lists[item], scores[item]])
            }
        }
    }
}

/// The random statements of one transaction over hundreds of sections. Sections are created
/// in a crowded band of the order (names and scores that sort next to each other), so that
/// one block of section counts grows past twice its width and splits, and removed a range at
/// a time, so that whole blocks empty.
enum WideStatements {
    static let lists = 300
    static let items = 1_200
    static let scores = 600

    /// A score as seeded: a multiple of 1,000, so that the crowded band fits between two.
    static func seededScore(_ random: inout SeededGenerator) -> Int64 { 1_000 * Int64.random(in: 0..<Int64(scores), using: &random) }

    /// A list's name as seeded, or in the crowded band when `crowded` is given.
    static func name(_ number: Int, crowded: Int? = nil) -> String {
        let seeded = "list " + String(repeating: "0", count: 4 - String(number).count) + String(number)
        return crowded.map { seeded + " \($0)" } ?? seeded
    }

    static func statement(_ random: inout SeededGenerator) -> RandomStatement {
        let list = Int64.random(in: 1...Int64(lists), using: &random)
        // A list past the seeded ones exists only once inserted: pointing at it may fail.
        let target = Int64.random(in: 1...Int64(lists + 20), using: &random)
        let item = Int64.random(in: 1...Int64(items + 100), using: &random)
        let span = Int64.random(in: 1...80, using: &random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<5:
            // Many sections at once, next to each other: a block splits within one transaction.
            return RandomStatement(
                sql: "UPDATE list SET name = 'list 0150 ' || (id * 7 % 400) WHERE id BETWEEN ? AND ?", arguments: [list, list + span])
        case 5..<9:
            return RandomStatement(
                sql: "UPDATE list SET name = 'list ' || printf('%04d', id) WHERE id BETWEEN ? AND ?", arguments: [list, list + span])
        case 9..<22:
            let crowded = name(150, crowded: Int.random(in: 0..<400, using: &random))
            return RandomStatement(sql: "UPDATE list SET name = ? WHERE id = ?", arguments: [crowded, list])
        case 22..<28:
            let seeded = name(Int.random(in: 1...(2 * lists), using: &random))
            return RandomStatement(sql: "UPDATE list SET name = ? WHERE id = ?", arguments: [seeded, list])
        case 28..<30: return RandomStatement(sql: "DELETE FROM list WHERE id BETWEEN ? AND ?", arguments: [list, list + 2 * span])
        case 30..<38:
            // Fails while the list exists.
            let seeded = name(Int.random(in: 1...(2 * lists), using: &random))
            return RandomStatement(sql: "INSERT INTO list(id, name) VALUES (?, ?)", arguments: [target, seeded], mayFail: true)
        case 38..<50:
            return RandomStatement(sql: "UPDATE item SET list_id = ? WHERE id = ?", arguments: [target, item], mayFail: true)
        case 50..<53:
            return RandomStatement(
                sql: "UPDATE item SET score = 300000 + (id * 13 % 400) WHERE id BETWEEN ? AND ?", arguments: [item, item + 2 * span])
        case 53..<56:
            return RandomStatement(
                sql: "UPDATE item SET score = 1000 * (id * 17 % 600) WHERE id BETWEEN ? AND ?", arguments: [item, item + 2 * span])
        case 56..<66:
            // Scores between two seeded ones: new sections next to each other.
            let crowded = 300_000 + Int64.random(in: 1..<400, using: &random)
            return RandomStatement(sql: "UPDATE item SET score = ? WHERE id = ?", arguments: [crowded, item])
        case 66..<72:
            let score = seededScore(&random)
            return RandomStatement(sql: "UPDATE item SET score = ? WHERE id = ?", arguments: [score, item])
        case 72..<88:
            let score = seededScore(&random)
            return RandomStatement(
                sql: "INSERT INTO item(title, list_id, score) VALUES (?, ?, ?)", arguments: ["t\(item % 5)", target, score],
                mayFail: true)
        case 88..<89: return RandomStatement(sql: "DELETE FROM item WHERE id BETWEEN ? AND ?", arguments: [item, item + span])
        default: return RandomStatement(sql: "DELETE FROM item WHERE id = ?", arguments: [item])
        }
    }
}
