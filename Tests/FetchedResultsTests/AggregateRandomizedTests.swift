import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// The random transactions of `CountRandomizedTests` (`IncludedStatements`: scores that are
/// sometimes NULL, items inserted under every conflict resolution, moved, changed, cascaded
/// and set NULL with their list, rollbacks, another connection's commits) against controllers
/// of lists ordered and sectioned by the sum, least and greatest score of their items (all,
/// those that meet a condition, those they own): after every transaction, each controller's
/// change sets must replay its previous results into a fresh read by SQL written here
/// (`LEFT JOIN … GROUP BY` and correlated subqueries). `FRC_SEED` replays a seed;
/// `FRC_COUNT_TRANSACTIONS` sets the number of transactions (1,500).
@MainActor @Suite(.timeLimit(.minutes(10))) struct AggregateRandomizedTests {
    let directory: TemporaryDirectory
    let store: Store
    let other: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: LabelSchema.script)
        other = try Store(path: directory.path("test.sqlite"))
    }

    /// Each request with the SQL that reads its results without the library.
    static let cases: [(request: StoreRequest<TodoList>, oracle: CountOracle)] = [
        (
            StoreRequest<TodoList>().order(TodoList.items.sum(\.score).descending).sectioned(by: TodoList.items.sum(\.score)),
            CountOracle(join: "item.list_id = list.id", order: "n DESC", isSectioned: true, value: "sum(item.score)")
        ),
        (
            StoreRequest<TodoList>().order(TodoList.items.min(\.score).ascending, TodoList.columns.name.ascending).batchSize(2),
            CountOracle(join: "item.list_id = list.id", order: "n ASC, list.name ASC", value: "min(item.score)")
        ),
        (
            StoreRequest<TodoList>().order(TodoList.owned.max(\.score) { $0.title != "t1" }.descending)
                .sectioned(by: TodoList.owned.max(\.score) { $0.title != "t1" }),
            CountOracle(
                join: "item.owner_id = list.id AND item.title <> 't1'", order: "n DESC", isSectioned: true, value: "max(item.score)")
        ),
        (
            // The sum second, after a NOCASE column.
            StoreRequest<TodoList>().order(TodoList.columns.label.ascending, TodoList.items.sum(\.score) { $0.score >= 2 }.ascending),
            CountOracle(join: "item.list_id = list.id AND item.score >= 2", order: "list.label ASC, n ASC", value: "sum(item.score)")
        ),
    ]

    /// Lists that show their sums and greatest scores (`including(_:as:)`), ordered by a sum.
    static let showingValues = StoreRequest<TodoList>().order(TodoList.items.sum(\.score).descending)
        .including(TodoList.items.sum(\.score), as: "total").including(TodoList.owned.max(\.score), as: "best").batchSize(3)

    @Test func changeSetsReplayIntoFreshAggregatesOfTheChildren() async throws {
        let seed = ProcessInfo.processInfo.environment["FRC_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        let transactions = ProcessInfo.processInfo.environment["FRC_COUNT_TRANSACTIONS"].flatMap { Int($0) } ?? 1_500
        print("AggregateRandomizedTests seed: \(seed) (replay with FRC_SEED=\(seed))")
        var random = SplitMix64(seed: seed)
        try await store.write { db in
            try db.execute(script: "INSERT INTO label(id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c');")
        }
        var checkers: [ReplayChecker<TodoList>] = []
        for (request, oracle) in Self.cases {
            let controller = FetchedResultsController(store: store, request: request)
            try controller.performFetch()
            checkers.append(ReplayChecker(controller, oracle: oracle.read))
        }
        let shown = try IncludedReplayChecker(Self.showingValues, store: store, render: ShownAggregates.render, fresh: ShownAggregates.read)
        for step in 0..<transactions {
            try await RandomCommit.run(IncludedStatements.random(&random), store: store, other: other, &random)
            for (number, checker) in checkers.enumerated() {
                guard try await checker.check(store, "seed \(seed), step \(step), controller \(number)") else { return }
            }
            guard try await shown.check("seed \(seed), step \(step), values shown") else { return }
        }
    }
}

/// The values `AggregateRandomizedTests.showingValues` includes, rendered from its rows and
/// read by SQL written here.
enum ShownAggregates {
    static func render(_ row: FetchedRow<TodoList>) -> String {
        "\(row.name ?? "nil")|\(row.value(named: "total"))|\(row.value(named: "best"))"
    }

    /// Every list with the sum of its items' scores and the greatest score of the items it owns.
    @Sendable static func read(_ db: Database) throws -> [Int64: String] {
        let sql = """
            SELECT list.id, list.name, (SELECT sum(score) FROM item WHERE list_id = list.id),
                (SELECT max(score) FROM item WHERE owner_id = list.id) FROM list
            """
        var rendered: [Int64: String] = [:]
        for row in try db.fetchRows(sql: sql) {
            let name = if case .text(let name) = row[1] { name } else { "nil" }
            rendered[row[0].integer] = "\(name)|\(row[2])|\(row[3])"
        }
        return rendered
    }
}
