import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// A controller whose keys or predicate read a to-one related row follows changes to that
/// row incrementally, in one change set per transaction.
@MainActor @Suite struct RelatedControllerTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: TodoItem.schema)
        try store.write { db in
            try db.execute(sql: "INSERT INTO list(id, name, label) VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', NULL)")
            try db.execute(
                sql: """
                    INSERT INTO item(id, title, list_id, owner_id, score) VALUES
                    (1, 't1', 1, 2, 1), (2, 't2', 1, NULL, 2), (3, 't3', 2, 1, 3), (4, 't4', 3, 1, 4)
                    """)
        }
    }

    static let byListName = StoreRequest<TodoItem>().order(TodoItem.list.name.ascending, Column("title").ascending)
        .sectioned(by: TodoItem.list.name.column)

    /// A checked controller for `request`, which must be maintained incrementally.
    private func follow(_ request: StoreRequest<TodoItem>) throws -> ReplayChecker<TodoItem> {
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let plan = try store.read { db in try FetchPlan(request, db: db, registered: []) }
        #expect(plan.isIncremental)
        return ReplayChecker(controller)
    }

    private func sectionNames(_ checker: ReplayChecker<TodoItem>) -> [String?] { checker.controller.sections.map(\.name) }

    @Test func renamingAListMovesItsItemsToTheRenamedSectionInOneChangeSet() async throws {
        let checker = try follow(Self.byListName)
        let before = checker.controller.rowsRead
        try await store.write { db in try db.execute(sql: "UPDATE list SET name = 'd' WHERE id = 1") }
        #expect(try await checker.check(store))
        #expect(checker.delivered.count == 1)
        #expect(checker.delivered.first?.sectionDeletes == [0])
        #expect(checker.delivered.first?.sectionInserts == [2])
        #expect(sectionNames(checker) == ["b", "c", "d"])
        #expect(checker.controller.rowsRead - before == 2, "the list's two items, with their objects in the same read, nothing else")
    }

    @Test func movingAnItemToAnotherListMovesIt() async throws {
        let checker = try follow(Self.byListName)
        try await store.write { db in try db.execute(sql: "UPDATE item SET list_id = 2 WHERE id = 1") }
        #expect(try await checker.check(store))
        let moves = try #require(checker.delivered.first?.moves)
        #expect(moves.map(\.from) == [IndexPath(row: 0, section: 0)])
        #expect(moves.map(\.to) == [IndexPath(row: 0, section: 1)])
    }

    @Test func deletingAListCascadesToItsItems() async throws {
        let checker = try follow(Self.byListName)
        try await store.write { db in try db.execute(sql: "DELETE FROM list WHERE id = 1") }
        #expect(try await checker.check(store))
        #expect(checker.delivered.first?.sectionDeletes == [0])
        #expect(sectionNames(checker) == ["b", "c"])
    }

    @Test func deletingAnOwnerMovesItsItemsToTheNullSection() async throws {
        let request = StoreRequest<TodoItem>().order(TodoItem.owner.label.ascending, Column("title").ascending)
            .sectioned(by: TodoItem.owner.label.column)
        let checker = try follow(request)
        #expect(sectionNames(checker) == [nil, "x", "y"])
        try await store.write { db in try db.execute(sql: "DELETE FROM list WHERE id = 2") }
        #expect(try await checker.check(store))
        #expect(checker.delivered.count == 1)
        #expect(sectionNames(checker) == [nil, "x"])
    }

    @Test func aRenameMakesItemsEnterAndLeaveAPredicateOnTheList() async throws {
        let checker = try follow(StoreRequest<TodoItem>().filter(TodoItem.list.name.column == "X").order(Column("title").ascending))
        #expect(checker.controller.numberOfObjects == 0)
        try await store.write { db in try db.execute(sql: "UPDATE list SET name = 'X' WHERE id = 1") }
        #expect(try await checker.check(store))
        #expect(checker.delivered.first?.inserts.count == 2)
        try await store.write { db in
            try db.execute(script: "UPDATE list SET name = 'X' WHERE id = 2; UPDATE list SET name = 'Y' WHERE id = 1")
        }
        #expect(try await checker.check(store))
        #expect(checker.delivered.count == 1)
        #expect(try checker.controller.fetchedObjects.map(\.id) == [3])
    }

    @Test func aChangeToTheChildrenOfAToManyPredicateReadsTheListsAgain() async throws {
        let items = ToMany<TodoList, TodoItem>("items", inverse: TodoItem.list)
        let controller = FetchedResultsController(
            store: store, request: StoreRequest<TodoList>().filter(items.any()).order(Column("name").ascending))
        try controller.performFetch()
        let checker = ReplayChecker(controller)
        #expect(controller.numberOfObjects == 3)
        try await store.write { db in try db.execute(sql: "DELETE FROM item WHERE list_id = 3") }
        #expect(try await checker.check(store))
        #expect(try controller.fetchedObjects.map(\.id) == [1, 2])
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title, list_id) VALUES ('t5', 3)") }
        #expect(try await checker.check(store))
        #expect(try controller.fetchedObjects.map(\.id) == [1, 2, 3])
    }

    @Test func aFetchOrdersARelatedColumnWithItsParentsCollationAsTheControllerDoes() async throws {
        try await store.write { db in
            try db.execute(script: "UPDATE list SET label = 'B' WHERE id = 1; UPDATE list SET label = 'a' WHERE id = 2")
        }
        let request = StoreRequest<TodoItem>().filter(TodoItem.owner.label.column.isNotNull).order(TodoItem.owner.label.ascending)
        let fetched = try await store.read { db in try db.fetch(request) }
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        // NOCASE puts 'a' (owner 2, item 1) before 'B' (owner 1, items 3 and 4); bytes would not.
        #expect(fetched.map(\.id) == [1, 3, 4])
        #expect(try controller.fetchedObjects.map(\.id) == fetched.map(\.id))
    }

    @Test func aSectionKeyIsTheParentsColumnWithItsCollation() async throws {
        // `label` is NOCASE on the parent: renaming `x` to `X` renames the section, in place.
        let request = StoreRequest<TodoItem>().filter(TodoItem.owner.label.column.isNotNull).order(TodoItem.owner.label.ascending)
            .sectioned(by: TodoItem.owner.label.column)
        let checker = try follow(request)
        try await store.write { db in
            try db.execute(script: "UPDATE list SET label = 'X' WHERE id = 1; UPDATE list SET label = 'xa' WHERE id = 2")
        }
        #expect(try await checker.check(store))
        #expect(sectionNames(checker) == ["X", "xa"])
    }

    @Test func aLinkNotByRowIDIsReadAgainAndStaysExact() async throws {
        try await store.write { db in
            try db.execute(script: "CREATE TABLE tag(code TEXT PRIMARY KEY, title TEXT); ALTER TABLE item ADD COLUMN tag TEXT;")
            try db.execute(
                script: "INSERT INTO tag VALUES ('p', 'one'), ('q', 'two'); UPDATE item SET tag = CASE WHEN id < 3 THEN 'p' ELSE 'q' END")
        }
        let tag = ToOneLink(name: "tag", childTable: "item", foreignKey: "tag", parentTable: "tag", referencedKey: "code")
        let request = StoreRequest<TodoItem>().order(Column("title", through: tag).ascending).sectioned(by: Column("title", through: tag))
        let plan = try await store.read { db in try FetchPlan(request, db: db, registered: []) }
        #expect(!plan.isIncremental)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let checker = ReplayChecker(controller)
        try await store.write { db in try db.execute(sql: "UPDATE tag SET title = 'zero' WHERE code = 'q'") }
        #expect(try await checker.check(store))
        #expect(sectionNames(checker) == ["one", "zero"])
    }

    /// 100,000 items: a million kept the main actor busy for over a minute in a debug build
    /// (`performFetch` is synchronous), past every other main-actor suite's time limit.
    @Test func renamingOneListRereadsOnlyItsItemsAmongAHundredThousand() async throws {
        try await store.write { db in
            try db.execute(sql: "DELETE FROM item")
            try db.execute(
                sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 999)
                    INSERT INTO list(id, name) SELECT x + 3, printf('list %04d', x) FROM n
                    """)
            try db.execute(
                sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000)
                    INSERT INTO item(id, title, list_id, score)
                    SELECT x, 'item', CASE WHEN x % 10000 = 0 THEN 1 ELSE 4 + x % 999 END, x % 7 FROM n
                    """)
        }
        let request = Self.byListName.batchSize(100)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        try controller.catchUp()  // the rest of the first page's read
        #expect(controller.numberOfObjects == 100_000)
        let afterFetch = controller.rowsRead
        var changes = controller.changes().makeAsyncIterator()
        try await store.write { db in try db.execute(sql: "UPDATE list SET name = 'zzz' WHERE id = 1") }
        let change = try #require(await changes.next())
        #expect(change.changeSet.sectionDeletes == [0])
        #expect(change.changeSet.sectionInserts == [999])
        #expect(controller.rowsRead - afterFetch == 10, "the list's ten items were read again, nothing else")
    }
}

/// The snippet of the Core Data article's "Related objects count".
@MainActor @Suite struct RelatedDocumentationTests {
    @Test func sectionsByTheListsName() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: TodoItem.schema)
        let byList = StoreRequest<TodoItem>()
            .order(TodoItem.list.name.ascending, Column("title").ascending)
            .sectioned(by: TodoItem.list.name.column)
        let controller = FetchedResultsController(store: store, request: byList)
        try controller.performFetch()
        #expect(controller.sections.isEmpty)
    }
}
