import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Live results ordered and sectioned by a related count: lists by their number of items
/// (all, or those that meet a condition), kept current row by row as items come, go, move
/// and change, past a first page too, in `LiveValues` as in the controller.
@MainActor @Suite(.timeLimit(.minutes(10))) struct CountControllerTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: TodoItem.schema)
    }

    /// The lists by their number of items scoring 2 or more, most first, in sections named by it.
    static let byScoredItems = StoreRequest<TodoList>()
        .order(TodoList.items.count { $0.score >= 2 }.descending, TodoList.columns.name.ascending)
        .sectioned(by: TodoList.items.count { $0.score >= 2 })

    private func write(_ script: String) async throws {
        try await store.write { db in try db.execute(script: script) }
    }

    private func names(_ controller: FetchedResultsController<TodoList>) -> [String] {
        controller.sections.indices.map { section in
            let rows = (0..<controller.sections[section].numberOfObjects).map { row in
                (try? controller.object(at: IndexPath(row: row, section: section)).name ?? "nil") ?? "?"
            }
            return "\(controller.sections[section].name ?? "nil"): \(rows.joined(separator: " "))"
        }
    }

    @Test func listsMoveAsTheirItemsComeGoMoveAndChange() async throws {
        try await write(
            """
            INSERT INTO list(id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c');
            INSERT INTO item(id, title, list_id, score) VALUES (1, 'x', 1, 2), (2, 'y', 1, 3), (3, 'z', 2, 2), (4, 'w', 3, 0);
            """)
        let controller = FetchedResultsController(store: store, request: Self.byScoredItems)
        try controller.performFetch()
        let checker = ReplayChecker(controller)
        #expect(names(controller) == ["2: a", "1: b", "0: c"])
        try await write("INSERT INTO item(id, title, list_id, score) VALUES (5, 'v', 3, 4), (6, 'u', 3, 2)")
        #expect(try await checker.check(store, "inserted"))
        #expect(names(controller) == ["2: a c", "1: b"])
        try await write("UPDATE item SET score = 1 WHERE id = 2")  // leaves the count
        #expect(try await checker.check(store, "changed"))
        #expect(names(controller) == ["2: c", "1: a b"])
        try await write("UPDATE item SET list_id = 2 WHERE id = 5")  // moves from c to b
        #expect(try await checker.check(store, "moved"))
        #expect(names(controller) == ["2: b", "1: a c"])
        try await write("DELETE FROM item WHERE id IN (1, 3)")
        #expect(try await checker.check(store, "deleted"))
        #expect(names(controller) == ["1: b c", "0: a"])
        try await write("UPDATE item SET title = 'renamed' WHERE id = 4")  // not counted, no change
        #expect(try await checker.check(store, "unchanged"))
        #expect(checker.delivered.isEmpty)
    }

    @Test func addingOneItemReadsOnlyItsListAgain() async throws {
        try await write(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO list(id, name) SELECT i, 'l' || i FROM n;
            INSERT INTO item(title, list_id, score) SELECT 't', id, 2 FROM list WHERE id % 3 = 0;
            """)
        let controller = FetchedResultsController(store: store, request: Self.byScoredItems)
        try controller.performFetch()
        try await controller.waitUntilCurrent()
        let checker = ReplayChecker(controller)
        let before = controller.rowsRead
        try await write("INSERT INTO item(title, list_id, score) VALUES ('new', 7, 3)")
        #expect(try await checker.check(store, "inserted"))
        #expect(controller.rowsRead - before <= 2, "\(controller.rowsRead - before) rows read: the results were read again")
        let change = try #require(checker.delivered.first)
        #expect(checker.delivered.count == 1 && change.moves.count == 1 && change.inserts.isEmpty && change.deletes.isEmpty)
    }

    @Test func aPredicateOnTheItemsReadsOnlyTheChangedItemsListsAgain() async throws {
        try await write(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO list(id, name) SELECT i, printf('l%04d', i) FROM n;
            INSERT INTO item(title, list_id, score) SELECT 't', id, 2 FROM list WHERE id % 3 = 0;
            """)
        let requests = [
            StoreRequest<TodoList>().filter(TodoList.items.any { $0.score >= 2 }).order(TodoList.columns.name.ascending),
            StoreRequest<TodoList>().filter(TodoList.items.count { $0.score >= 2 } >= 1 && TodoList.columns.name.isNotNull),
            StoreRequest<TodoList>().filter(TodoList.items.sum(\.score) > 1),
        ]
        for request in requests {
            let controller = FetchedResultsController(store: store, request: request)
            try controller.performFetch()
            try await controller.waitUntilCurrent()
            let checker = ReplayChecker(controller)
            let before = controller.rowsRead
            var delivered: [[Int]] = []
            for write in [
                "INSERT INTO item(id, title, list_id, score) VALUES (9999, 'new', 7, 3)",  // list 7 enters
                "UPDATE item SET list_id = 8 WHERE id = 9999",  // 7 leaves, 8 enters
                "DELETE FROM item WHERE id = 9999",  // 8 leaves
            ] {
                try await self.write(write)
                #expect(try await checker.check(store, write))
                delivered += checker.delivered.map { [$0.inserts.count, $0.deletes.count] }
            }
            #expect(controller.rowsRead - before <= 4, "\(controller.rowsRead - before) rows read: the results were read again")
            #expect(delivered == [[1, 0], [1, 1], [0, 1]])
        }
    }

    @Test func rowsPastTheFirstPageAreFoundWithTheCountsBoundValues() async throws {
        try await write(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 900)
            INSERT INTO list(id, name) SELECT i, 'l' || (i % 7) FROM n;
            INSERT INTO item(title, list_id, score) SELECT 't', id, id % 4 FROM list WHERE id % 5 <> 0;
            INSERT INTO item(title, list_id, score) SELECT 't', id, 3 FROM list WHERE id % 3 = 0;
            """)
        let controller = FetchedResultsController(store: store, request: Self.byScoredItems.batchSize(10))
        controller.holdsBackgroundReadAfter = 300
        try controller.performFetch()
        let expected = try store.freshSnapshot(Self.byScoredItems)
        #expect(expected.sections.count == 3)
        for section in expected.sections.indices {
            for row in [0, expected.sections[section].ids.count / 2, expected.sections[section].ids.count - 1] {
                let path = IndexPath(row: row, section: section)
                #expect(try controller.object(at: path).id == expected.id(at: path)?.rowID, "\(path)")
            }
        }
        controller.resumeBackgroundRead()
        try await controller.waitUntilCurrent()
        #expect(controller.results.sectionedSnapshot() == expected)
    }

    @Test func aCountColumnInAPredicateBindsItsConditionAndIsFollowed() async throws {
        try await write(
            """
            INSERT INTO list(id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c');
            INSERT INTO item(title, list_id, score) VALUES ('x', 1, 2), ('y', 1, 3), ('z', 2, 1), ('w', 3, 2);
            """)
        let scored = TodoList.items.count { $0.score >= 2 }
        let typed = TypedColumn<TodoList, Int>(scored.column)
        let requests = [
            StoreRequest<TodoList>().filter(scored.column >= 1).order(scored.ascending),
            StoreRequest<TodoList>().filter(typed.between(1, and: 5) && typed.in([1, 2])).order(scored.ascending),
        ]
        for request in requests {
            #expect(try await store.read { db in try db.fetch(request) }.map(\.name) == ["c", "a"])
            let controller = FetchedResultsController(store: store, request: request)
            try controller.performFetch()
            let checker = ReplayChecker(controller)
            try await write("UPDATE item SET score = 5 WHERE title = 'z'")
            #expect(try await checker.check(store, "counted in the predicate"))
            #expect(try controller.fetchedObjects.map(\.name) == ["b", "c", "a"])
            try await write("UPDATE item SET score = 1 WHERE title = 'z'")
        }
    }

    @Test func liveValuesFollowACount() async throws {
        try await write(
            """
            INSERT INTO list(id, name) VALUES (1, 'a'), (2, 'b');
            INSERT INTO item(id, title, list_id, score) VALUES (1, 'x', 1, 2);
            """)
        var values = LiveValues(StoreRequest<TodoList>().order(TodoList.items.count.ascending), in: store).makeAsyncIterator()
        let first = try #require(try await values.next())
        #expect(first.values.map(\.name) == ["b", "a"])
        try await write("INSERT INTO item(title, list_id) VALUES ('y', 2), ('z', 2)")
        let change = try #require(try await values.next())
        #expect(change.values.map(\.name) == ["a", "b"])
        #expect(change.changeSet.moves.count == 1)
    }
}
