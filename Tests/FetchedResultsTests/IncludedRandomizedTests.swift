import Foundation
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreResults

/// Random transactions over people, lists, items, labels and the items' labels, against
/// controllers whose rows include their list, owner, labels, items, counts of labels (plain
/// and conditional), sums, least and greatest scores and the list's person, filtered,
/// ordered and sectioned through one link and two (item → list → person, whose name is
/// `NOCASE` and nickname `RTRIM`). After every transaction, each controller must
///
/// - replay its change sets from its previous results into a fresh SQL read (identities,
///   order, sections), and show for every row the included objects a fresh read of the joins
///   (written here) or a fresh one-shot fetch of the same request gives;
/// - have posted at most one change set for it, and exactly one when its results changed;
/// - have reported as updated (in place, or moved with `isChanged`) exactly the rows that
///   stay whose shown values changed: the model, everything it includes, and its sort keys,
///   compared byte for byte.
///
/// A consumer keeps a row's included objects until a change set names the row (updated,
/// moved or inserted): a change to a related row that is not reported leaves a stale value
/// and fails the check. Statements fail and are caught (foreign keys, unique pairs under
/// ABORT and FAIL), replace and ignore conflicting rows (key renumbering too), roll back in a
/// savepoint or take the whole transaction with them (`OR ROLLBACK`), cascade (a list's
/// items, an item's or a label's pairs) and nullify (owners, people), and commit through
/// another connection. CI runs a fixed seed for 400 transactions; `FRC_INCLUDED_TRANSACTIONS`
/// runs longer with a fresh seed (printed), and `FRC_SEED` replays one.
@MainActor @Suite(.timeLimit(.minutes(15))) struct IncludedRandomizedTests {
    let database: LabelDatabase
    var store: Store { database.store }
    var other: Store { database.other }

    init() throws {
        database = try LabelDatabase(
            adding: Person.schema + """
                INSERT INTO person(id, name, nick) VALUES (1, 'ann', 'a'), (2, 'Ann', 'a  '), (3, 'bob', 'b');
                """)
    }

    static let person = TodoItem.list.then(TodoList.person)

    static let itemRequests: [StoreRequest<TodoItem>] = [
        StoreRequest<TodoItem>().order(TodoItem.list.name.ascending, Column("title").ascending)
            .sectioned(by: TodoItem.list.name.column).batchSize(7),
        StoreRequest<TodoItem>().order(Column("score").descending),
        StoreRequest<TodoItem>().filter(Column("score") >= 2).order(Column("title").ascending).batchSize(5),
        StoreRequest<TodoItem>().order(person.name.ascending, Column("id").ascending).sectioned(by: person.name.column),
    ].map { $0.including(TodoItem.list).including(TodoItem.owner).including(all: TodoItem.labels) }

    /// The items with their list and its person, by joins (which compare in the columns' collations).
    static let people = "FROM item LEFT JOIN list l ON l.id = item.list_id LEFT JOIN person p ON p.id = l.person_id"

    /// Two hops, in NOCASE (the shape of the issue's missed updates), with the results by SQL's joins.
    static let pathFilteredRequest = (
        StoreRequest<TodoItem>().filter(person.name < "b").order(TodoItem.list.name.descending, Column("id").ascending)
            .including(TodoItem.list).including(TodoItem.owner).including(all: TodoItem.labels),
        SQLOracle(table: "item", sql: "SELECT item.id \(people) WHERE p.name < 'b' ORDER BY l.name DESC, item.id")
    )

    /// Requests whose included values only the one-shot fetch checks (no joins written here),
    /// with the results by SQL's joins when they filter through links.
    static let countedItemRequests: [(request: StoreRequest<TodoItem>, oracle: SQLOracle?)] = [
        (
            StoreRequest<TodoItem>().order(Column("title").ascending, Column("id").ascending)
                .including(TodoItem.labels.count, as: "labelCount").including(TodoItem.labels.count { $0.name != "a" }, as: "others")
                .including(
                    all: TodoItem.labels,
                    targets: StoreRequest<Label>().filter(Label.columns.name != "b").order(Column("name").descending)),
            nil
        ),
        (
            StoreRequest<TodoItem>().filter(person.nick == "a").order(Column("score").ascending).batchSize(4)
                .including(TodoItem.labels.count, as: "labelCount").including(TodoItem.list),
            SQLOracle(table: "item", sql: "SELECT item.id \(people) WHERE p.nick = 'a' ORDER BY item.score, item.id")
        ),
    ]

    static let listRequests: [StoreRequest<TodoList>] = [
        StoreRequest<TodoList>().order(Column("name").ascending).including(all: TodoList.items).batchSize(3)
    ]

    static let aggregateListRequests: [StoreRequest<TodoList>] = [
        StoreRequest<TodoList>().order(Column("label").ascending, Column("id").ascending)
            .including(TodoList.items.sum(\.score), as: "total").including(TodoList.items.max(\.score), as: "top")
            .including(TodoList.items.min(\.score) { $0.title != "t0" }, as: "least")
            .including(TodoList.items.count { $0.score >= 2 }, as: "high").including(TodoList.person),
        StoreRequest<TodoList>().order(TodoList.items.count.descending, Column("id").ascending)
            .including(TodoList.items.count, as: "items").including(all: TodoList.owned),
    ]

    @Test func changeSetsReplayRowsAndTheirIncludedObjectsIntoFreshJoins() async throws {
        let run = RandomizedRun(
            "IncludedRandomizedTests", transactionsFrom: "FRC_INCLUDED_TRANSACTIONS", default: 400, fixedSeed: 55)
        let (seed, transactions) = (run.seed, run.transactions)
        var random = run.random
        var checkers: [any IncludedCheck] = []
        for request in Self.itemRequests {
            checkers.append(try IncludedReplayChecker(request, store: store, render: IncludedJoins.render, fresh: IncludedJoins.items))
        }
        let (pathFiltered, pathOracle) = Self.pathFilteredRequest
        checkers.append(
            try IncludedReplayChecker(
                pathFiltered, store: store, oracle: pathOracle, render: IncludedJoins.render, fresh: IncludedJoins.items))
        for (request, oracle) in Self.countedItemRequests {
            checkers.append(try IncludedReplayChecker(request, store: store, oracle: oracle))
        }
        for request in Self.listRequests {
            checkers.append(try IncludedReplayChecker(request, store: store, render: IncludedJoins.render, fresh: IncludedJoins.lists))
        }
        for request in Self.aggregateListRequests {
            checkers.append(try IncludedReplayChecker(request, store: store))
        }
        // `LiveValues` of the same requests: the engine's other consumer.
        checkers.append(try await IncludedLiveValuesChecker(pathFiltered, store: store))
        checkers.append(try await IncludedLiveValuesChecker(Self.countedItemRequests[0].request, store: store))
        // `LiveResults` of them too, with each row's included objects read by `row(at:)`.
        checkers.append(try await IncludedLiveResultsChecker(pathFiltered, store: store))
        checkers.append(try await IncludedLiveResultsChecker(Self.countedItemRequests[1].request, store: store))
        for step in 0..<transactions {
            try await RandomCommit.run(IncludedStatements.random(&random, withPeople: true), store: store, other: other, &random)
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
/// compares everything with a fresh read after each transaction; and it checks that each
/// transaction came as one change set that updated exactly the rows whose shown values changed.
@MainActor final class IncludedReplayChecker<M: StoreModel>: IncludedCheck {
    private let order: ReplayChecker<M>
    private let render: (FetchedRow<M>) -> String
    private let fresh: @Sendable (Database) throws -> [Int64: String]
    private let store: Store
    private var shown: [Int64: String] = [:]
    private var subscription: FetchedResultsSubscription?
    /// The rows the change sets named since the last check: their included objects are read again.
    private var named: Set<ObjectID> = []
    /// The rows the change sets reported updated (in place, or moved with `isChanged`) since the last check.
    private var updated: Set<Int64> = []
    /// The rows the change sets inserted (alone, or with their section) since the last
    /// check: shown anew, whether their values changed or not.
    private var inserted: Set<Int64> = []
    /// The results before the next change.
    private var previous: SectionedSnapshot<ObjectID>
    /// Each row's shown values (`IncludedShownValues`) at the last check.
    private var values: [Int64: [UInt8]]
    /// The controller's posted change sets at the last check.
    private var posted: Int
    /// The results at the last check.
    private var checked: SectionedSnapshot<ObjectID>

    /// Follows `request`, whose included values are checked against a fresh one-shot fetch
    /// of the same request (`Database.fetchRows(_:)`) rendered with `IncludedShownValues.render`.
    convenience init(_ request: StoreRequest<M>, store: Store, oracle: SQLOracle? = nil) throws {
        try self.init(request, store: store, oracle: oracle, render: IncludedShownValues.render) { db in
            try IncludedShownValues.rendered(db.fetchRows(request))
        }
    }

    /// Follows `request`, whose results `oracle` reads (by default, the request's own SQL),
    /// and whose rows `render` shows as `fresh` reads them.
    init(
        _ request: StoreRequest<M>, store: Store, oracle: SQLOracle? = nil, render: @escaping (FetchedRow<M>) -> String,
        fresh: @escaping @Sendable (Database) throws -> [Int64: String]
    ) throws {
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        try controller.catchUp()
        var read: (@Sendable (Database) throws -> SectionedSnapshot<ObjectID>)?
        if let oracle { read = { db in try oracle.read(db) } }
        order = ReplayChecker(controller, oracle: read)
        previous = controller.results.sectionedSnapshot()
        self.render = render
        self.fresh = fresh
        self.store = store
        values = try store.read { db in try IncludedShownValues.read(request, db) }
        posted = controller.changeSetsPosted
        checked = previous
        for (position, row) in try controller.fetchedRows.enumerated() {
            if let rowID = controller.results.index.rowID(at: position) { shown[rowID] = render(row) }
        }
        subscription = controller.subscribe { [unowned self] change in
            let new = change.results.sectionedSnapshot()
            let changed = change.changeSet.moves.filter(\.isChanged)
            for path in change.changeSet.updates + changed.map(\.from) {
                if let id = previous.id(at: path) {
                    named.insert(id)
                    updated.insert(id.rowID)
                }
            }
            for path in change.changeSet.inserts + changed.map(\.to) {
                if let id = new.id(at: path) { named.insert(id) }
            }
            for path in change.changeSet.inserts { if let id = new.id(at: path) { inserted.insert(id.rowID) } }
            // The rows of an inserted section are inserted too.
            for section in change.changeSet.sectionInserts {
                named.formUnion(new.sections[section].ids)
                inserted.formUnion(new.sections[section].ids.map(\.rowID))
            }
            previous = new
        }
    }

    func check(_ context: String) async throws -> Bool {
        guard try await order.check(store, context) else { return false }
        let controller = order.controller
        guard try checkUpdates(context) else { return false }
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

    /// Checks the change sets of one transaction: at most one, exactly one when the results
    /// or a row's shown values changed, and updating exactly the rows that stay whose shown
    /// values changed.
    private func checkUpdates(_ context: String) throws -> Bool {
        let controller = order.controller
        let request = controller.request
        let new = try store.read { db in try IncludedShownValues.read(request, db) }
        let after = controller.results.sectionedSnapshot()
        let staying = Set(values.keys).intersection(new.keys).subtracting(inserted)
        let changed = staying.filter { values[$0] != new[$0] }
        let reported = updated.intersection(staying)
        let postedNow = controller.changeSetsPosted - posted
        let expectedChangeSets = changed.isEmpty && checked.isExactly(after) ? 0 : 1
        defer {
            (values, posted, updated, inserted, checked) = (new, controller.changeSetsPosted, [], [], after)
        }
        guard order.delivered.count == expectedChangeSets, postedNow == expectedChangeSets else {
            Issue.record(
                "\(context): \(order.delivered.count) change sets delivered (\(order.delivered)), \(postedNow) posted, for one transaction"
            )
            return false
        }
        guard reported == changed else {
            Issue.record(
                "\(context): updated rows \(reported.sorted()), rows whose shown values changed \(changed.sorted()): missed \(changed.subtracting(reported).sorted()), spurious \(reported.subtracting(changed).sorted()); before \(changed.symmetricDifference(reported).sorted().map { String(decoding: values[$0] ?? [], as: UTF8.self) }), after \(changed.symmetricDifference(reported).sorted().map { String(decoding: new[$0] ?? [], as: UTF8.self) }), change sets \(order.delivered)"
            )
            return false
        }
        return true
    }
}

/// Follows one request through a `LiveValues` iterator, as an actor holding its values would:
/// after each transaction its values must be the models a fresh fetch reads, in order, and
/// its change set must update exactly the rows that stay whose shown values changed.
@MainActor final class IncludedLiveValuesChecker<M: StoreModel & Equatable>: IncludedCheck {
    private var iterator: LiveValues<M>.Iterator
    private let request: StoreRequest<M>
    private let store: Store
    /// The values last taken.
    private var last: FetchedValues<M>
    /// Each row's shown values (`IncludedShownValues`) when `last` was checked.
    private var shown: [Int64: [UInt8]]

    init(_ request: StoreRequest<M>, store: Store) async throws {
        self.request = request
        self.store = store
        var iterator = LiveValues(request, in: store).makeAsyncIterator()
        guard let first = try await iterator.next() else { throw CancellationError() }
        self.iterator = iterator
        last = first.values
        shown = try await store.read { db in try IncludedShownValues.read(request, db) }
    }

    func check(_ context: String) async throws -> Bool {
        // Taken out and put back: an actor's property cannot be passed `inout` across a suspension.
        var iterator = self.iterator
        let change = try await iterator.nextOfCommitted()
        self.iterator = iterator
        let request = request
        let (fresh, new) = try await store.read { db in (try db.fetch(request), try IncludedShownValues.read(request, db)) }
        let before = last.results.sectionedSnapshot()
        let values = change?.values ?? last
        defer { (last, shown) = (values, new) }
        guard Array(values) == fresh else {
            Issue.record("\(context): live values \(values.map(\.id)) != fresh \(fresh.map(\.id))")
            return false
        }
        return IncludedShownValues.updatesAreExact(
            change?.changeSet, from: before, to: values.results.sectionedSnapshot(), shown: shown, new: new, "\(context): live values")
            != nil
    }
}

/// Follows one request through `LiveResults`, as a view or an actor holding them would: after
/// each transaction its objects must be the models a fresh fetch reads, in order, and each
/// row's included objects (`row(at:)`, kept from earlier reads until a change touches the row)
/// those a fresh fetch reads; one change must have been applied when the shown values changed
/// and none otherwise, updating exactly the rows that stay whose shown values changed.
@MainActor final class IncludedLiveResultsChecker<M: StoreModel & Equatable>: IncludedCheck {
    private let results: LiveResults<M>
    private let request: StoreRequest<M>
    private let store: Store
    /// The results last checked.
    private var last: FetchedResultsSnapshot
    /// Each row's shown values (`IncludedShownValues`) when `last` was checked.
    private var shown: [Int64: [UInt8]]
    /// The changes applied when `last` was checked.
    private var applied: Int

    init(_ request: StoreRequest<M>, store: Store) async throws {
        self.request = request
        self.store = store
        results = LiveResults(request, in: store)
        try await results.waitUntilCurrent()
        last = results.results
        applied = results.changesApplied
        shown = try await store.read { db in try IncludedShownValues.read(request, db) }
    }

    func check(_ context: String) async throws -> Bool {
        try await results.waitUntilCurrent()
        let request = request
        let (fresh, freshRows, new) = try await store.read { db in
            (try db.fetch(request), IncludedShownValues.rendered(try db.fetchRows(request)), try IncludedShownValues.read(request, db))
        }
        let before = last.sectionedSnapshot()
        let changes = results.changesApplied - applied
        defer { (last, shown, applied) = (results.results, new, results.changesApplied) }
        guard Array(results) == fresh else {
            Issue.record("\(context): live results \(results.map(\.id)) != fresh \(fresh.map(\.id))")
            return false
        }
        for position in results.indices {
            let row = results.row(at: position).map(IncludedShownValues.render)
            guard let rowID = results.objectID(at: position)?.rowID, row == freshRows[rowID] else {
                Issue.record("\(context): live row at \(position) shows \(row ?? "nothing"), a fresh read \(freshRows)")
                return false
            }
        }
        guard changes <= 1 else {
            Issue.record("\(context): \(changes) changes applied for one transaction")
            return false
        }
        let after = results.results.sectionedSnapshot()
        guard
            let changed = IncludedShownValues.updatesAreExact(
                changes == 1 ? results.lastChange : nil, from: before, to: after, shown: shown, new: new, "\(context): live results")
        else { return false }
        let moved = before != after
        guard changes == 1 || (!moved && changed.isEmpty) else {
            Issue.record("\(context): the results changed without a change applied")
            return false
        }
        return true
    }
}

/// What a row shows, read afresh: its model, everything the request includes, and its sort
/// keys (a row whose parent's name changes shows it in its section), rendered as text.
enum IncludedShownValues {
    /// The rows that stay from `before` to `after` whose shown values changed (`shown` to `new`),
    /// when `changeSet` reported exactly those as updated (in place, or moved with `isChanged`);
    /// otherwise `nil`, with the issue recorded.
    static func updatesAreExact(
        _ changeSet: ChangeSet?, from before: SectionedSnapshot<ObjectID>, to after: SectionedSnapshot<ObjectID>,
        shown: [Int64: [UInt8]], new: [Int64: [UInt8]], _ context: String
    ) -> Set<Int64>? {
        var updated: Set<Int64> = []
        var inserted: Set<Int64> = []
        if let changeSet {
            for path in changeSet.updates + changeSet.moves.filter(\.isChanged).map(\.from) {
                if let id = before.id(at: path) { updated.insert(id.rowID) }
            }
            for path in changeSet.inserts { if let id = after.id(at: path) { inserted.insert(id.rowID) } }
            for section in changeSet.sectionInserts { inserted.formUnion(after.sections[section].ids.map(\.rowID)) }
        }
        let staying = Set(shown.keys).intersection(new.keys).subtracting(inserted)
        let changed = staying.filter { shown[$0] != new[$0] }
        guard updated.intersection(staying) == changed else {
            Issue.record("\(context) updated \(updated.sorted()), rows whose shown values changed \(changed.sorted())")
            return nil
        }
        return changed
    }

    /// The model and each included value, by name, as Swift describes them.
    static func render<M>(_ row: FetchedRow<M>) -> String {
        var text = "\(row.model)"
        for (name, value) in row.related.sorted(by: { $0.key < $1.key }) {
            let described: String = value.map { String(describing: $0) } ?? "nil"
            text += "|\(name)=\(described)"
        }
        return text
    }

    /// `rows` rendered, by rowid.
    static func rendered<M>(_ rows: [FetchedRow<M>]) -> [Int64: String] {
        var rendered: [Int64: String] = [:]
        for row in rows { if let rowID = row.model.objectID?.rowID { rendered[rowID] = render(row) } }
        return rendered
    }

    /// Every row of `request` with its rendering and sort key values, as UTF-8 bytes (SQLite
    /// compares text by bytes; Swift's `==` calls NFC and NFD equal), by rowid.
    static func read<M>(_ request: StoreRequest<M>, _ db: Database) throws -> [Int64: [UInt8]] {
        var values = rendered(try db.fetchRows(request)).mapValues { Array($0.utf8) }
        let keys = request.orderings.map(\.column.sql).joined(separator: ", ")
        let (sql, arguments) = try request.sql(
            selecting: "rowid" + (keys.isEmpty ? "" : ", " + keys), arguments: request.orderings.flatMap(\.arguments))
        for row in try db.fetchRows(sql: sql, arguments: arguments) {
            guard case .integer(let rowID) = row[0] else { continue }
            var keyText = ""
            for position in 1..<(request.orderings.count + 1) { keyText += "|\(row[position])" }
            values[rowID, default: []] += Array(keyText.utf8)
        }
        return values
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

    /// One to three statements; `withPeople`, one to six, on people too (`Person.schema`),
    /// some of them rolled back in a savepoint.
    static func random(_ random: inout SeededGenerator, withPeople: Bool = false) -> [RandomStatement] {
        guard withPeople else { return (0..<Int.random(in: 1...3, using: &random)).map { _ in statement(&random) } }
        return (0..<Int.random(in: 1...6, using: &random)).map { _ in
            let statement = Int.random(in: 0..<100, using: &random) < 25 ? personStatement(&random) : statement(&random)
            guard Int.random(in: 0..<100, using: &random) < 6 else { return statement }
            var rolledBack = statement
            rolledBack.inRolledBackSavepoint = true
            return rolledBack
        }
    }

    /// A statement on people, on the lists' link to them, or renumbering a key.
    private static func personStatement(_ random: inout SeededGenerator) -> RandomStatement {
        let person = Int64.random(in: 1...4, using: &random)
        let name = ["ann", "Ann", "ANN", "bob", "Bob ", nil].randomElement(using: &random) ?? nil
        let nick = ["a", "a  ", " a", "b", nil].randomElement(using: &random) ?? nil
        let list = Int64.random(in: 1...6, using: &random)
        let label = Int64.random(in: 1...4, using: &random)
        let resolution = ["", "OR IGNORE", "OR REPLACE"].randomElement(using: &random) ?? ""
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<25: return RandomStatement(sql: "UPDATE person SET name = ?, nick = ? WHERE id = ?", arguments: [name, nick, person])
        case 25..<50:
            // Person 4 never exists at first: pointing at it fails until it is inserted.
            let owner: Int64? = Int.random(in: 0..<5, using: &random) == 0 ? nil : person
            return RandomStatement(sql: "UPDATE list SET person_id = ? WHERE id = ?", arguments: [owner, list], mayFail: true)
        case 50..<62:
            return RandomStatement(
                sql: "INSERT \(resolution) INTO person(id, name, nick) VALUES (?, ?, ?)", arguments: [person, name, nick], mayFail: true)
        case 62..<70: return RandomStatement(sql: "DELETE FROM person WHERE id = ?", arguments: [person])
        case 70..<80:
            // Renumbering: under REPLACE the row holding the new id is deleted first (and its pairs cascade).
            return RandomStatement(
                sql: "UPDATE \(resolution) label SET id = ? WHERE id = ?", arguments: [label, Int64.random(in: 1...4, using: &random)],
                mayFail: true)
        case 80..<90:
            return RandomStatement(
                sql: "UPDATE \(resolution) item SET id = ? WHERE id = ?",
                arguments: [Int64.random(in: 1...40, using: &random), Int64.random(in: 1...40, using: &random)], mayFail: true)
        default:
            return RandomStatement(
                sql: "UPDATE \(resolution) item_label SET item_id = ? WHERE id = ?",
                arguments: [Int64.random(in: 1...40, using: &random), Int64.random(in: 1...30, using: &random)], mayFail: true)
        }
    }

    /// An item's score: 0 to 4, or NULL (which sums, least and greatest values ignore).
    private static func score(_ random: inout SeededGenerator) -> Int64? {
        let score = Int64.random(in: 0...5, using: &random)
        return score == 5 ? nil : score
    }

    private static func statement(_ random: inout SeededGenerator) -> RandomStatement {
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
