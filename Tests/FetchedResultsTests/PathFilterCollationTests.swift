import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// A filter on a column read through links compares with that column's declared collation
/// (`NOCASE`, `RTRIM`), one link away or two, as SQLite compares a joined column, and as the
/// orderings and sections through the same links do; a link that finds no row reads NULL.
@MainActor @Suite struct PathFilterCollationTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: TodoItem.schema + Person.schema + """
                INSERT INTO person(id, name, nick) VALUES (1, 'ann', 'a  '), (2, 'Bob', 'b');
                INSERT INTO list(id, name, label, person_id) VALUES (1, 'L1', 'Home', 1), (2, 'L2', 'work', 2), (3, 'L3', NULL, NULL);
                INSERT INTO item(id, title, list_id) VALUES (1, 'one', 1), (2, 'two', 2), (3, 'three', 3), (4, 'four', NULL);
                """)
    }

    static let person = TodoItem.list.then(TodoList.person)

    /// The ids of the items `predicate` selects, read by the store.
    private func ids(_ predicate: ModelPredicate<TodoItem>) throws -> [Int64?] {
        try store.read { db in try db.fetch(StoreRequest<TodoItem>().filter(predicate).order(Column("id").ascending)).map(\.id) }
    }

    @Test func comparisonsThroughLinksUseTheColumnsCollation() throws {
        #expect(try ids(Self.person.name == "ANN") == [1])
        #expect(try ids(Self.person.name != "ANN") == [2, 3, 4])
        #expect(try ids(Self.person.name < "b") == [1], "NOCASE: 'ann' < 'b' < 'Bob'")
        #expect(try ids(Self.person.name.in(["BOB", "nobody"])) == [2])
        #expect(try ids(Self.person.name.between("A", and: "AZ")) == [1])
        #expect(try ids(Self.person.nick == "a") == [1], "RTRIM: trailing spaces do not count")
        #expect(try ids(Self.person.name == nil) == [3, 4], "no person, or no list: NULL")
        #expect(try ids(TodoItem.list.label == "HOME") == [1])
        #expect(try ids(TodoItem.list.label >= "W") == [2])
    }

    @Test func aControllerFilteredThroughTwoLinksFollowsRenamesInTheCollation() async throws {
        let request = StoreRequest<TodoItem>().filter(Self.person.name == "Ann").order(Column("id").ascending)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        #expect(try controller.fetchedObjects.map(\.id) == [1])
        try await store.write { db in
            try db.execute(sql: "UPDATE person SET name = 'ANN' WHERE id = 1")
            try db.execute(sql: "UPDATE person SET name = 'aNN' WHERE id = 2")
        }
        try await controller.waitUntilCurrent()
        #expect(try controller.fetchedObjects.map(\.id) == [1, 2])
    }
}
