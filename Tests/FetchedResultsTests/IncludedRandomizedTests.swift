import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Random transactions over lists, items, labels and the items' labels, against controllers
/// whose rows include their list, owner, labels or items: after every transaction, each
/// controller's change sets must replay its previous results (identities, order and the
/// included objects of every row) into a fresh SQL read of the joins, written here.
///
/// A consumer keeps a row's included objects until a change set names the row (updated,
/// moved or inserted): a change to a related row that is not reported leaves a stale value
/// and fails the check. Statements fail and are caught (foreign keys, unique pairs under
/// ABORT and FAIL), replace and ignore conflicting pairs, roll the whole transaction back
/// (`OR ROLLBACK`), cascade (a list's items, an item's or a label's pairs, owners set NULL),
/// and commit through another connection. `FRC_SEED` replays a seed;
/// `FRC_INCLUDED_TRANSACTIONS` sets the number of transactions (1,500).
@MainActor @Suite(.timeLimit(.minutes(15))) struct IncludedRandomizedTests {
    let database: LabelDatabase
    var store: Store { database.store }
    var other: Store { database.other }

    init() throws { database = try LabelDatabase() }

    static let itemRequests: [StoreRequest<TodoItem>] = [
        StoreRequest<TodoItem>().order(TodoItem.list.name.ascending, Column("title").ascending)
            .sectioned(by: TodoItem.list.name.column).batchSize(7),
        StoreRequest<TodoItem>().order(Column("score").descending),
        StoreRequest<TodoItem>().filter(Column("score") >= 2).order(Column("title").ascending).batchSize(5),
    ].map { $0.including(TodoItem.list).including(TodoItem.owner).including(all: TodoItem.labels) }

    static let listRequests: [StoreRequest<TodoList>] = [
        StoreRequest<TodoList>().order(Column("name").ascending).including(all: TodoList.items).batchSize(3)
    ]

    @Test func changeSetsReplayRowsAndTheirIncludedObjectsIntoFreshJoins() async throws {
        let run = RandomizedRun("IncludedRandomizedTests", transactionsFrom: "FRC_INCLUDED_TRANSACTIONS", default: 1_500)
        let (seed, transactions) = (run.seed, run.transactions)
        var random = run.random
        var checkers: [any IncludedCheck] = []
        for request in Self.itemRequests {
            checkers.append(try IncludedReplayChecker(request, store: store, render: IncludedJoins.render, fresh: IncludedJoins.items))
        }
        for request in Self.listRequests {
            checkers.append(try IncludedReplayChecker(request, store: store, render: IncludedJoins.render, fresh: IncludedJoins.lists))
        }
        for step in 0..<transactions {
            try await RandomCommit.run(IncludedStatements.random(&random), store: store, other: other, &random)
            for (number, checker) in checkers.enumerated() {
                guard try await checker.check("seed \(seed), step \(step), controller \(number)") else { return }
            }
        }
    }
}

/// A controller's replay, for checkers of any model.
@MainActor protocol IncludedCheck {
    func check(_ context: String) async throws -> Bool
}

/// Follows one controller as a consumer that shows each row's included objects: it keeps
/// what it rendered of each row, renders again only the rows a change set names, and
/// compares everything with a fresh read of the joins after each transaction.
@MainActor final class IncludedReplayChecker<M: StoreModel>: IncludedCheck {
    private let order: ReplayChecker<M>
    private let render: (FetchedRow<M>) -> String
    private let fresh: @Sendable (Database) throws -> [Int64: String]
    private let store: Store
    private var shown: [Int64: String] = [:]
    private var subscription: FetchedResultsSubscription?
    /// The rows the change sets named since the last check: their included objects are read again.
    private var named: Set<ObjectID> = []
    /// The results before the next change.
    private var previous: SectionedSnapshot<ObjectID>

    init(
        _ request: StoreRequest<M>, store: Store, render: @escaping (FetchedRow<M>) -> String,
        fresh: @escaping @Sendable (Database) throws -> [Int64: String]
    ) throws {
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        try controller.catchUp()
        order = ReplayChecker(controller)
        previous = controller.results.sectionedSnapshot()
        self.render = render
        self.fresh = fresh
        self.store = store
        for (position, row) in try controller.fetchedRows.enumerated() {
            if let rowID = controller.results.index.rowID(at: position) { shown[rowID] = render(row) }
        }
        subscription = controller.subscribe { [unowned self] change in
            let new = change.results.sectionedSnapshot()
            let changed = change.changeSet.moves.filter(\.isChanged)
            for path in change.changeSet.updates + changed.map(\.from) {
                if let id = previous.id(at: path) { named.insert(id) }
            }
            for path in change.changeSet.inserts + changed.map(\.to) {
                if let id = new.id(at: path) { named.insert(id) }
            }
            // The rows of an inserted section are inserted too.
            for section in change.changeSet.sectionInserts { named.formUnion(new.sections[section].ids) }
            previous = new
        }
    }

    func check(_ context: String) async throws -> Bool {
        guard try await order.check(store, context) else { return false }
        let controller = order.controller
        var current: [Int64: String] = [:]
        for position in 0..<controller.results.numberOfObjects {
            guard let rowID = controller.results.index.rowID(at: position) else { continue }
            let id = ObjectID(table: controller.request.tableName, rowID: rowID)
            if let kept = shown[rowID], !named.contains(id) {
                current[rowID] = kept
            } else {
                guard let indexPath = controller.indexPath(for: id) else { continue }
                current[rowID] = render(try controller.row(at: indexPath))
            }
        }
        named = []
        shown = current
        let expected = try await store.read { [fresh] db in try fresh(db) }.filter { current[$0.key] != nil }
        guard current == expected else {
            let differing = current.keys.filter { current[$0] != expected[$0] }.sorted()
            Issue.record(
                "\(context): stale included objects in rows \(differing): shown \(differing.map { current[$0] ?? "-" }), fresh \(differing.map { expected[$0] ?? "-" })"
            )
            return false
        }
        return true
    }
}

/// The included objects as the test's own joins read them, rendered as text by rowid.
enum IncludedJoins {
    static func render(_ row: FetchedRow<TodoItem>) -> String {
        let list = row.list.map { "\($0.id ?? 0):\($0.name ?? "nil"):\($0.label ?? "nil")" } ?? "-"
        let owner = row.owner.map { "\($0.id ?? 0):\($0.label ?? "nil")" } ?? "-"
        return "\(row.title)|\(row.score ?? -1)|\(list)|\(owner)|\(row.labels.map { "\($0.id ?? 0):\($0.name)" })"
    }

    static func render(_ row: FetchedRow<TodoList>) -> String {
        "\(row.name ?? "nil")|\(row.items.map { "\($0.id ?? 0):\($0.title):\($0.score ?? -1)" })"
    }

    /// Every item with its list, owner and labels (in the labels' rowid order).
    @Sendable static func items(_ db: Database) throws -> [Int64: String] {
        var labels: [Int64: [String]] = [:]
        let pairs =
            "SELECT item_label.item_id, label.id, label.name FROM item_label JOIN label ON label.id = item_label.label_id ORDER BY label.id"
        for row in try db.fetchRows(sql: pairs) {
            if case .integer(let item) = row[0] { labels[item, default: []].append("\(text(row[1])):\(text(row[2]))") }
        }
        var rendered: [Int64: String] = [:]
        let sql = """
            SELECT item.id, item.title, item.score, l.id, l.name, l.label, o.id, o.label
            FROM item LEFT JOIN list l ON l.id = item.list_id LEFT JOIN list o ON o.id = item.owner_id
            """
        for row in try db.fetchRows(sql: sql) {
            guard case .integer(let id) = row[0] else { continue }
            let list = row[3] == .null ? "-" : "\(text(row[3])):\(text(row[4])):\(text(row[5]))"
            let owner = row[6] == .null ? "-" : "\(text(row[6])):\(text(row[7]))"
            let score = row[2] == .null ? "-1" : text(row[2])
            rendered[id] = "\(text(row[1]))|\(score)|\(list)|\(owner)|\(labels[id] ?? [])"
        }
        return rendered
    }

    /// Every list with its items (in rowid order).
    @Sendable static func lists(_ db: Database) throws -> [Int64: String] {
        var items: [Int64: [String]] = [:]
        for row in try db.fetchRows(sql: "SELECT list_id, id, title, score FROM item ORDER BY id") {
            let score = row[3] == .null ? "-1" : text(row[3])
            if case .integer(let list) = row[0] { items[list, default: []].append("\(text(row[1])):\(text(row[2])):\(score)") }
        }
        var rendered: [Int64: String] = [:]
        for row in try db.fetchRows(sql: "SELECT id, name FROM list") {
            if case .integer(let id) = row[0] { rendered[id] = "\(text(row[1]))|\(items[id] ?? [])" }
        }
        return rendered
    }

    /// A value as the renderings write it: NULL as "nil".
    private static func text(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "nil"
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .text(let text): text
        case .blob(let blob): "\(blob)"
        }
    }
}

/// The random statements of one transaction over lists, items, labels and pairs.
enum IncludedStatements {
    private static let names: [String?] = ["a", "b", "B", nil, "Caf\u{E9}", "Cafe\u{301}"]
    private static let resolutions = ["", "OR IGNORE", "OR REPLACE", "OR ABORT", "OR FAIL", "OR ROLLBACK"]

    static func random(_ random: inout SplitMix64) -> [RandomStatement] {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in statement(&random) }
    }

    /// An item's score: 0 to 4, or NULL (which sums, least and greatest values ignore).
    private static func score(_ random: inout SplitMix64) -> Int64? {
        let score = Int64.random(in: 0...5, using: &random)
        return score == 5 ? nil : score
    }

    private static func statement(_ random: inout SplitMix64) -> RandomStatement {
        let list = Int64.random(in: 1...6, using: &random)
        let item = Int64.random(in: 1...40, using: &random)
        let label = Int64.random(in: 1...4, using: &random)
        let name = names.randomElement(using: &random) ?? nil
        // A list outside 1...6 never exists: pointing at it fails the foreign key.
        let target = Int64.random(in: 1...7, using: &random)
        let owner: Int64? = Bool.random(using: &random) ? nil : Int64.random(in: 1...6, using: &random)
        let resolution = resolutions.randomElement(using: &random) ?? ""
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<12: return RandomStatement(sql: "UPDATE list SET name = ?, label = ? WHERE id = ?", arguments: [name, name, list])
        case 12..<18:
            // Under REPLACE an existing list is deleted first, with what its foreign keys do.
            return RandomStatement(
                sql: "INSERT \(resolution) INTO list(id, name) VALUES (?, ?)", arguments: [list, name], mayFail: true,
                mayRollBack: resolution == "OR ROLLBACK")
        case 18..<22: return RandomStatement(sql: "DELETE FROM list WHERE id = ?", arguments: [list])
        case 22..<36:
            return RandomStatement(
                sql: "INSERT \(resolution) INTO item(id, title, list_id, owner_id, score) VALUES (?, ?, ?, ?, ?)",
                arguments: [item, "t\(item % 5)", target, owner, score(&random)], mayFail: true,
                mayRollBack: resolution == "OR ROLLBACK")
        case 36..<46:
            return RandomStatement(
                sql: "UPDATE item SET list_id = ?, owner_id = ? WHERE id = ?", arguments: [target, owner, item], mayFail: true)
        case 46..<52:
            return RandomStatement(
                sql: "UPDATE item SET title = ?, score = ? WHERE id = ?",
                arguments: ["t\(Int.random(in: 0...4, using: &random))", score(&random), item])
        case 52..<58: return RandomStatement(sql: "DELETE FROM item WHERE id = ?", arguments: [item])
        case 58..<76:
            // Two pairs in one statement: under FAIL the first stays when the second conflicts.
            let other = Int64.random(in: 1...4, using: &random)
            return RandomStatement(
                sql: "INSERT \(resolution) INTO item_label(item_id, label_id) VALUES (?, ?), (?, ?)",
                arguments: [item, label, item, other], mayFail: true, mayRollBack: resolution == "OR ROLLBACK")
        case 76..<82:
            return RandomStatement(
                sql: "UPDATE \(resolution) item_label SET label_id = ? WHERE item_id = ?", arguments: [label, item], mayFail: true,
                mayRollBack: resolution == "OR ROLLBACK")
        case 82..<88: return RandomStatement(sql: "DELETE FROM item_label WHERE item_id = ? AND label_id = ?", arguments: [item, label])
        case 88..<93: return RandomStatement(sql: "UPDATE label SET name = ? WHERE id = ?", arguments: [name ?? "n", label])
        case 93..<96: return RandomStatement(sql: "DELETE FROM label WHERE id = ?", arguments: [label])
        default:
            return RandomStatement(
                sql: "INSERT \(resolution) INTO label(id, name) VALUES (?, ?)", arguments: [label, name ?? "n"], mayFail: true,
                mayRollBack: resolution == "OR ROLLBACK")
        }
    }
}
