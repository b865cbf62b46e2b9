import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Random transactions over lists, items, labels and the items' labels, against controllers
/// of lists ordered and sectioned by how many items they have (all, those that meet a
/// condition, those they own): after every transaction, each controller's change sets must
/// replay its previous results into a fresh read of the counts by SQL written here
/// (`LEFT JOIN … GROUP BY`), independent of the library's count subqueries.
///
/// Items are inserted under every conflict resolution (REPLACE deletes the row it replaces,
/// ROLLBACK ends the transaction), fail their foreign key and are caught, move to another
/// list, change so that they enter or leave a conditional count, and go with their list
/// (CASCADE) or lose their owner (SET NULL); a trigger changes a renamed list's items
/// (`LabelSchema.renameTrigger`); transactions roll back, and commit through another connection. `FRC_SEED` replays a seed; `FRC_COUNT_TRANSACTIONS` sets the number
/// of transactions (500; CI draws a fresh seed each run).
@MainActor @Suite(.timeLimit(.minutes(15))) struct CountRandomizedTests {
    let database: LabelDatabase
    var store: Store { database.store }
    var other: Store { database.other }

    init() throws { database = try LabelDatabase(adding: LabelSchema.renameTrigger) }

    /// Each request with the SQL that reads its results without the library: the count of
    /// `join`'s items per list, and the order (`n` is the count).
    static let cases: [(request: StoreRequest<TodoList>, oracle: CountOracle)] = [
        (
            StoreRequest<TodoList>().order(TodoList.items.count { $0.score >= 2 }.descending, TodoList.columns.name.ascending)
                .sectioned(by: TodoList.items.count { $0.score >= 2 }),
            CountOracle(join: "item.list_id = list.id AND item.score >= 2", order: "n DESC, list.name ASC", isSectioned: true)
        ),
        (
            StoreRequest<TodoList>().order(TodoList.items.count.ascending).batchSize(2),
            CountOracle(join: "item.list_id = list.id", order: "n ASC")
        ),
        (
            StoreRequest<TodoList>().filter(Column("name").isNotNull).order(TodoList.owned.count.descending)
                .sectioned(by: TodoList.owned.count),
            CountOracle(join: "item.owner_id = list.id", where: "list.name IS NOT NULL", order: "n DESC", isSectioned: true)
        ),
        (
            // The count second, after a NOCASE column.
            StoreRequest<TodoList>().order(TodoList.columns.label.ascending, TodoList.items.count { $0.title == "t1" }.descending),
            CountOracle(join: "item.list_id = list.id AND item.title = 't1'", order: "list.label ASC, n DESC")
        ),
    ]

    /// Lists that show their counts (`including(_:as:)`), ordered by one of them.
    static let showingCounts = StoreRequest<TodoList>().order(TodoList.items.count { $0.score >= 2 }.descending)
        .including(TodoList.items.count { $0.score >= 2 }, as: "scored").including(TodoList.owned.count, as: "owned").batchSize(3)

    /// Every list with its number of items scoring 2 or more and of items it owns: what
    /// `showingCounts` shows, by SQL.
    static let shownCounts = """
        SELECT list.id, list.name, count(DISTINCT scored.id), count(DISTINCT owned.id) FROM list
        LEFT JOIN item scored ON scored.list_id = list.id AND scored.score >= 2
        LEFT JOIN item owned ON owned.owner_id = list.id GROUP BY list.id
        """

    /// A row of `showingCounts` as `ShownValues` renders the rows of `shownCounts`.
    static func renderCounts(_ row: FetchedRow<TodoList>) -> String {
        "\(row.name ?? "nil")|\(row.count(named: "scored"))|\(row.count(named: "owned"))"
    }

    @Test func changeSetsReplayIntoFreshCountsOfTheChildren() async throws {
        try await replayRandomTransactions(
            into: Self.cases, showing: Self.showingCounts, freshSQL: Self.shownCounts, render: Self.renderCounts)
    }

    /// Runs random transactions (`FRC_SEED`, `FRC_COUNT_TRANSACTIONS`) and after each one checks
    /// a controller of each of `cases` against its oracle, and the rows of `shown`, each
    /// rendered by `render` as `name|value|…`, against those of `freshSQL` (see `ShownValues`).
    func replayRandomTransactions(
        into cases: [(request: StoreRequest<TodoList>, oracle: CountOracle)], showing shown: StoreRequest<TodoList>,
        freshSQL: String, render: @escaping (FetchedRow<TodoList>) -> String
    ) async throws {
        let run = RandomizedRun("CountRandomizedTests", transactionsFrom: "FRC_COUNT_TRANSACTIONS", default: 500)
        let (seed, transactions) = (run.seed, run.transactions)
        var random = run.random
        var checkers: [ReplayChecker<TodoList>] = []
        for (request, oracle) in cases {
            let controller = FetchedResultsController(store: store, request: request)
            try controller.performFetch()
            checkers.append(ReplayChecker(controller, oracle: oracle.read))
        }
        let shown = try IncludedReplayChecker(shown, store: store, render: render) { db in try ShownValues.read(db, sql: freshSQL) }
        for step in 0..<transactions {
            try await RandomCommit.run(IncludedStatements.random(&random), store: store, other: other, &random)
            for (number, checker) in checkers.enumerated() {
                guard try await checker.check(store, "seed \(seed), step \(step), controller \(number)") else { return }
            }
            guard try await shown.check("seed \(seed), step \(step), values shown") else { return }
        }
    }
}

/// Values shown with each list, read by SQL written in a test.
enum ShownValues {
    /// Each row of `sql` (a list's id, its name, then values) rendered by the list's id as
    /// `name|value|…`: a NULL name as `nil`, values as SQL literals (`2`, `NULL`).
    static func read(_ db: Database, sql: String) throws -> [Int64: String] {
        var rendered: [Int64: String] = [:]
        for row in try db.fetchRows(sql: sql) {
            let name = if case .text(let name) = row[1] { name } else { "nil" }
            rendered[row[0].integer] = ([name] + row.values.dropFirst(2).map(\.description)).joined(separator: "|")
        }
        return rendered
    }
}

/// The lists and their counts (or another aggregate of their items) as a test reads them:
/// `SELECT list.id, <value> AS n FROM list LEFT JOIN item ON <join> [WHERE <where>] GROUP BY
/// list.id [HAVING <having>] ORDER BY <order>, list.id`, in sections of equal values when
/// sectioned (named by the value, as the controller names them: a NULL sum, least or
/// greatest value as `nil`).
struct CountOracle: Sendable {
    let join: String
    var `where`: String?
    var having: String?
    let order: String
    var isSectioned = false
    /// The aggregate of the joined items: their number by default, `sum(item.score)`, ….
    var value = "count(item.id)"

    @Sendable func read(_ db: Database) throws -> SectionedSnapshot<ObjectID> {
        let sql = """
            SELECT list.id, \(value) AS n FROM list LEFT JOIN item ON \(join)
            \(`where`.map { "WHERE \($0)" } ?? "") GROUP BY list.id \(having.map { "HAVING \($0)" } ?? "")
            ORDER BY \(order), list.id
            """
        let rows = try db.fetchRows(sql: sql).map { (id: ObjectID(table: "list", rowID: $0[0].integer), value: $0[1]) }
        guard isSectioned else { return SectionedSnapshot(ids: rows.map(\.id)) }
        var sections: [SectionedSnapshot<ObjectID>.Section] = []
        for row in rows {
            let name = row.value == .null ? nil : row.value.description
            if sections.isEmpty || sections.last?.name != name { sections.append(.init(name: name, ids: [])) }
            sections[sections.count - 1].ids.append(row.id)
        }
        return SectionedSnapshot(sections: sections)
    }
}
