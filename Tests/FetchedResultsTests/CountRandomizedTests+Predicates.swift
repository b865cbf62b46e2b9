import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// `CountRandomizedTests` for predicates on the children (`any`, `isEmpty`, a compared count,
/// sum or greatest value, alone and with conditions on the list's own columns or on another
/// relationship): its random transactions (`IncludedStatements`) against controllers of the
/// lists that match, ordered by their own columns or by a count or sum: after every
/// transaction, each controller's change sets must replay its previous results into a fresh
/// read by SQL written here (`LEFT JOIN … GROUP BY … HAVING`). The controllers follow these
/// predicates row by row, reading again only the old and new lists of the changed items.
/// `FRC_SEED` replays a seed; `FRC_COUNT_TRANSACTIONS` sets the number of transactions (500).
extension CountRandomizedTests {
    /// Each request with the SQL that reads its results without the library.
    static let predicateCases: [(request: StoreRequest<TodoList>, oracle: CountOracle)] = [
        (
            StoreRequest<TodoList>().filter(TodoList.items.any { $0.score >= 2 }).order(TodoList.columns.name.ascending),
            CountOracle(join: "item.list_id = list.id AND item.score >= 2", having: "count(item.id) > 0", order: "list.name ASC")
        ),
        (
            StoreRequest<TodoList>().filter(TodoList.items.count > 1 && TodoList.columns.name.isNotNull)
                .order(TodoList.items.count.descending).sectioned(by: TodoList.items.count),
            CountOracle(
                join: "item.list_id = list.id", where: "list.name IS NOT NULL", having: "count(item.id) > 1", order: "n DESC",
                isSectioned: true)
        ),
        (
            StoreRequest<TodoList>().filter(TodoList.owned.isEmpty).order(TodoList.columns.label.ascending).batchSize(2),
            CountOracle(join: "item.owner_id = list.id", having: "count(item.id) = 0", order: "list.label ASC")
        ),
        (
            // Two relationships: the sum of one, or any child of the other.
            StoreRequest<TodoList>().filter(TodoList.items.sum(\.score) { $0.title != "t1" } >= 3 || TodoList.owned.any())
                .order(TodoList.items.sum(\.score) { $0.title != "t1" }.descending),
            CountOracle(
                join: "item.list_id = list.id AND item.title <> 't1'",
                having: "sum(item.score) >= 3 OR EXISTS (SELECT 1 FROM item owned WHERE owned.owner_id = list.id)",
                order: "n DESC", value: "sum(item.score)")
        ),
        (
            // NULL (no scored item) matches no comparison.
            StoreRequest<TodoList>().filter(TodoList.items.max(\.score) < 3).order(TodoList.columns.name.descending),
            CountOracle(join: "item.list_id = list.id", having: "max(item.score) < 3", order: "list.name DESC")
        ),
    ]

    @Test func changeSetsReplayIntoFreshFiltersOnTheChildren() async throws {
        try await replayRandomTransactions(
            into: Self.predicateCases, showing: Self.showingCounts, freshSQL: Self.shownCounts, render: Self.renderCounts)
    }
}
