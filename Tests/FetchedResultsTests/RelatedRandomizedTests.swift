import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Random transactions over two tables, lists and their items, against controllers sorted,
/// sectioned and filtered by the items' lists: after every transaction, each controller's
/// delivered change sets must replay its previous results into a fresh SQL read of the join.
///
/// Lists are renamed (names and labels with ties, NULLs, and names Swift's `==` confuses:
/// "Café" in NFC and in NFD), deleted (their items cascade, owners are set NULL), and
/// reinserted with the same id; items move between lists and point at missing lists (the
/// statement fails and is caught inside a committed transaction). Controllers of lists
/// filtered by their items (to-many predicates, read again and diffed) are checked too.
/// `FRC_SEED` replays a seed; `FRC_RELATED_TRANSACTIONS` sets the number of transactions (5,000).
@MainActor @Suite(.timeLimit(.minutes(15))) struct RelatedRandomizedTests {
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
            .sectioned(by: TodoItem.list.name.column).batchSize(7),
        StoreRequest<TodoItem>().order(TodoItem.owner.label.descending, Column("score").ascending)
            .sectioned(by: TodoItem.owner.label.column),
        StoreRequest<TodoItem>().filter(TodoItem.list.name.column == "b" || Column("score") >= 4)
            .order(Column("score").descending, TodoItem.list.name.ascending).batchSize(5),
        StoreRequest<TodoItem>().filter(TodoItem.owner.label.column.isNotNull)
            .order(TodoItem.owner.label.ascending, TodoItem.list.name.descending).sectioned(by: TodoItem.owner.label.column),
        // Read again and diffed: an SQL fragment over the relationship.
        StoreRequest<TodoItem>().filter(SQLExpression(sql: "list_id IN (SELECT id FROM list WHERE name < ?)", arguments: ["c"]))
            .order(TodoItem.list.name.ascending).sectioned(by: TodoItem.list.name.column),
    ]

    /// Lists filtered by their items: a change of an item can make its list enter or leave.
    static let listRequests: [StoreRequest<TodoList>] = [
        StoreRequest<TodoList>().filter(TodoList.items.any()).order(Column("name").ascending),
        StoreRequest<TodoList>().filter(TodoList.items.count >= 2).order(Column("label").descending)
            .sectioned(by: Column("label")),
    ]

    @Test func changeSetsReplayIntoFreshReadsOfTheJoin() async throws {
        let run = RandomizedRun("RelatedRandomizedTests", transactionsFrom: "FRC_RELATED_TRANSACTIONS", default: 5_000)
        let (seed, transactions) = (run.seed, run.transactions)
        var random = run.random
        var checkers: [ReplayChecker<TodoItem>] = []
        for request in Self.requests {
            let controller = FetchedResultsController(store: store, request: request)
            try controller.performFetch()
            checkers.append(ReplayChecker(controller))
        }
        var listCheckers: [ReplayChecker<TodoList>] = []
        for request in Self.listRequests {
            let controller = FetchedResultsController(store: store, request: request)
            try controller.performFetch()
            listCheckers.append(ReplayChecker(controller))
        }
        for step in 0..<transactions {
            try await RandomCommit.run(RelatedStatements.random(&random), store: store, other: other, &random)
            for (number, checker) in checkers.enumerated() {
                guard try await checker.check(store, "seed \(seed), step \(step), controller \(number)") else { return }
                if step % 250 == 0 { try await checkObjects(checker.controller, "seed \(seed), step \(step), controller \(number)") }
            }
            for (number, checker) in listCheckers.enumerated() {
                guard try await checker.check(store, "seed \(seed), step \(step), list controller \(number)") else { return }
            }
        }
    }

    /// The objects at a few index paths are the rows SQLite reads for the request, in order.
    private func checkObjects(_ controller: FetchedResultsController<TodoItem>, _ context: String) async throws {
        let expected = try await store.read { [request = controller.request] db in
            try db.fetch(FetchPlan(request, db: db, registered: []).request)
        }
        var position = 0
        for (section, info) in controller.sections.enumerated() {
            for row in stride(from: 0, to: info.numberOfObjects, by: 3) {
                #expect(try controller.object(at: IndexPath(row: row, section: section)) == expected[position + row], "\(context)")
            }
            position += info.numberOfObjects
        }
    }
}

/// The random statements of one transaction over lists and items.
enum RelatedStatements {
    /// Ties, case, NULL, and "Café" in NFC and NFD: equal for Swift's `==`, not for SQLite.
    private static let names: [String?] = ["a", "b", "B", "c", nil, "Caf\u{E9}", "Cafe\u{301}"]
    private static let labels: [String?] = ["x", "X", "y", "Z", nil]

    static func random(_ random: inout SeededGenerator) -> [RandomStatement] {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in statement(&random) }
    }

    private static func statement(_ random: inout SeededGenerator) -> RandomStatement {
        let list = Int64.random(in: 1...8, using: &random)
        let item = Int64.random(in: 1...60, using: &random)
        let name = names.randomElement(using: &random) ?? nil
        let label = labels.randomElement(using: &random) ?? nil
        // A list outside 1...8 never exists: pointing at it fails the foreign key.
        let target = Int64.random(in: 1...9, using: &random)
        let owner: Int64? = Bool.random(using: &random) ? nil : Int64.random(in: 1...8, using: &random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<20: return RandomStatement(sql: "UPDATE list SET name = ?, label = ? WHERE id = ?", arguments: [name, label, list])
        case 20..<28:
            // Reinsertion with the same id: fails while the list exists.
            return RandomStatement(
                sql: "INSERT INTO list(id, name, label) VALUES (?, ?, ?)", arguments: [list, name, label], mayFail: true)
        case 28..<34: return RandomStatement(sql: "DELETE FROM list WHERE id = ?", arguments: [list])
        case 34..<36:
            // Changing a parent's rowid: fails while items point at it.
            return RandomStatement(sql: "UPDATE list SET id = ? WHERE id = ?", arguments: [target, list], mayFail: true)
        case 36..<56:
            return RandomStatement(
                sql: "INSERT INTO item(title, list_id, owner_id, score) VALUES (?, ?, ?, ?)",
                arguments: ["t\(item % 4)", target, owner, Int64.random(in: 0...6, using: &random)], mayFail: true)
        case 56..<76: return RandomStatement(sql: "UPDATE item SET list_id = ? WHERE id = ?", arguments: [target, item], mayFail: true)
        case 76..<84:
            return RandomStatement(
                sql: "UPDATE item SET owner_id = ?, score = ? WHERE id = ?",
                arguments: [owner, Int64.random(in: 0...6, using: &random), item],
                mayFail: true)
        case 84..<92: return RandomStatement(sql: "DELETE FROM item WHERE id = ?", arguments: [item])
        default: return RandomStatement(sql: "UPDATE list SET name = name || '' WHERE id = ?", arguments: [list])
        }
    }
}
