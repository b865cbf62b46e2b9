import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Random transactions over lists, items, labels and the items' labels (`IncludedStatements`:
/// every conflict resolution, caught foreign-key failures, cascades, rollbacks, names equal
/// only under Unicode equivalence, another connection; and `LabelSchema.renameTrigger`, which
/// rescores a renamed list's items), against the live shapes that are read again and diffed rather than followed
/// row by row: items filtered, ordered and sectioned by their many-to-many labels (any,
/// any with a condition, count, conditional count), and item-label pairs ordered, sectioned
/// and filtered by a column two links away (pair → item → list). After every transaction,
/// each controller's change sets must replay its previous results into a fresh read by SQL
/// written here, with joins, `GROUP BY` and `dense_rank()` sections, not the library's subqueries.
///
/// `FRC_SEED` replays a seed; `FRC_PATH_TRANSACTIONS` sets the number of transactions (500;
/// a fresh seed each run).
@MainActor @Suite(.timeLimit(.minutes(15))) struct ManyToManyAndPathRandomizedTests {
    /// A row of the join table, as a model: the start of a path of two links.
    struct ItemLabel: StoreModel, Equatable {
        static let tableName = "item_label"
        var id: Int64?
        var itemID: Int64
        var labelID: Int64

        enum CodingKeys: String, CodingKey {
            case id
            case itemID = "item_id"
            case labelID = "label_id"
        }
    }

    static let pairItem = ToOneLink(name: "item", childTable: "item_label", foreignKey: "item_id", parentTable: "item")
    static let itemList = ToOneLink(name: "list", childTable: "item", foreignKey: "list_id", parentTable: "list")
    static let listName = Column("name", through: [pairItem, itemList])
    /// `list.label` is NOCASE: the order two links away compares with the parent column's collation.
    static let listLabel = Column("label", through: [pairItem, itemList])

    /// The number of an item's labels, and of those named `a`, by SQL.
    static let labelCounts = """
        SELECT item.id, item.title, item.score, count(DISTINCT label.id) AS n, count(DISTINCT named.id) AS a FROM item
        LEFT JOIN item_label ON item_label.item_id = item.id
        LEFT JOIN label ON label.id = item_label.label_id
        LEFT JOIN label named ON named.id = item_label.label_id AND named.name = 'a'
        GROUP BY item.id
        """

    static let itemCases: [(request: StoreRequest<TodoItem>, oracle: SQLOracle)] = [
        (
            StoreRequest<TodoItem>().filter(TodoItem.labels.any()).order(Column("title").ascending).batchSize(4),
            SQLOracle(table: "item", sql: "SELECT id FROM (\(labelCounts)) WHERE n > 0 ORDER BY title, id")
        ),
        (
            StoreRequest<TodoItem>().filter(TodoItem.labels.any { $0.name == "a" }).order(Column("score").descending),
            SQLOracle(table: "item", sql: "SELECT id FROM (\(labelCounts)) WHERE a > 0 ORDER BY score DESC, id")
        ),
        (
            StoreRequest<TodoItem>().order(TodoItem.labels.count.descending, Column("title").ascending)
                .sectioned(by: TodoItem.labels.count),
            SQLOracle(
                table: "item",
                sql: "SELECT id, n, dense_rank() OVER (ORDER BY n DESC) FROM (\(labelCounts)) ORDER BY n DESC, title, id",
                isSectioned: true)
        ),
        (
            StoreRequest<TodoItem>().filter(TodoItem.labels.count { $0.name != "a" } >= 2).order(Column("title").descending),
            SQLOracle(table: "item", sql: "SELECT id FROM (\(labelCounts)) WHERE n - a >= 2 ORDER BY title DESC, id")
        ),
    ]

    /// The pairs with their list's name and label, by SQL.
    static let pairLists = """
        SELECT item_label.id, item_label.label_id, list.name, list.label FROM item_label
        JOIN item ON item.id = item_label.item_id LEFT JOIN list ON list.id = item.list_id
        """

    static let pairCases: [(request: StoreRequest<ItemLabel>, oracle: SQLOracle)] = [
        (
            StoreRequest<ItemLabel>().order(listName.ascending, Column("label_id").descending).sectioned(by: listName),
            SQLOracle(
                table: "item_label",
                sql: """
                    SELECT id, name, dense_rank() OVER (ORDER BY name) FROM (\(pairLists))
                    ORDER BY name, label_id DESC, id
                    """, isSectioned: true)
        ),
        (
            StoreRequest<ItemLabel>().filter(listLabel.isNotNull).order(listLabel.descending).batchSize(3),
            SQLOracle(
                table: "item_label",
                sql: "SELECT id FROM (\(pairLists)) WHERE label IS NOT NULL ORDER BY label COLLATE NOCASE DESC, id")
        ),
    ]

    let database: LabelDatabase
    var store: Store { database.store }
    var other: Store { database.other }

    init() throws { database = try LabelDatabase(adding: LabelSchema.renameTrigger) }

    @Test func changeSetsReplayIntoFreshReadsOfTheJoins() async throws {
        let run = RandomizedRun("ManyToManyAndPathRandomizedTests", transactionsFrom: "FRC_PATH_TRANSACTIONS", default: 500)
        let (seed, transactions) = (run.seed, run.transactions)
        var random = run.random
        let items = try Self.itemCases.map { try follow($0.request, $0.oracle) }
        let pairs = try Self.pairCases.map { try follow($0.request, $0.oracle) }
        for step in 0..<transactions {
            try await RandomCommit.run(IncludedStatements.random(&random), store: store, other: other, &random)
            for (number, checker) in items.enumerated() {
                guard try await checker.check(store, "seed \(seed), step \(step), item controller \(number)") else { return }
            }
            for (number, checker) in pairs.enumerated() {
                guard try await checker.check(store, "seed \(seed), step \(step), pair controller \(number)") else { return }
            }
        }
    }

    private func follow<M: StoreModel>(_ request: StoreRequest<M>, _ oracle: SQLOracle) throws -> ReplayChecker<M> {
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        return ReplayChecker(controller, oracle: oracle.read)
    }
}

/// Results as SQL written in a test reads them: rows of `(rowid)`, or, when `isSectioned`, of
/// `(rowid, section key, section number)`, where the number
/// (`dense_rank()`) says which rows share a section, as SQLite compares their keys, and the
/// key names it (as the controller names sections: text as it is, NULL as `nil`, a number as
/// written).
struct SQLOracle: Sendable {
    let table: String
    let sql: String
    var isSectioned = false

    @Sendable func read(_ db: Database) throws -> SectionedSnapshot<ObjectID> {
        let rows = try db.fetchRows(sql: sql)
        guard isSectioned else { return SectionedSnapshot(ids: rows.map { ObjectID(table: table, rowID: $0[0].integer) }) }
        var sections: [SectionedSnapshot<ObjectID>.Section] = []
        var lastSection: Int64?
        for row in rows {
            if row[2].integer != lastSection { sections.append(.init(name: row[1].sectionName, ids: [])) }
            lastSection = row[2].integer
            sections[sections.count - 1].ids.append(ObjectID(table: table, rowID: row[0].integer))
        }
        return SectionedSnapshot(sections: sections)
    }
}
