import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// `CountRandomizedTests` for sums, least and greatest values: its random transactions
/// (`IncludedStatements`: scores that are
/// sometimes NULL, items inserted under every conflict resolution, moved, changed, cascaded
/// and set NULL with their list, rollbacks, another connection's commits) against controllers
/// of lists ordered and sectioned by the sum, least and greatest score of their items (all,
/// those that meet a condition, those they own): after every transaction, each controller's
/// change sets must replay its previous results into a fresh read by SQL written here
/// (`LEFT JOIN … GROUP BY` and correlated subqueries). `FRC_SEED` replays a seed;
/// `FRC_COUNT_TRANSACTIONS` sets the number of transactions (500).
extension CountRandomizedTests {
    /// Each request with the SQL that reads its results without the library.
    static let aggregateCases: [(request: StoreRequest<TodoList>, oracle: CountOracle)] = [
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
        // Every list with the sum of its items' scores and the greatest score of the items it owns.
        let values = """
            SELECT list.id, list.name, (SELECT sum(score) FROM item WHERE list_id = list.id),
                (SELECT max(score) FROM item WHERE owner_id = list.id) FROM list
            """
        try await replayRandomTransactions(into: Self.aggregateCases, showing: Self.showingValues, freshSQL: values) { row in
            "\(row.name ?? "nil")|\(row.value(named: "total"))|\(row.value(named: "best"))"
        }
    }
}
