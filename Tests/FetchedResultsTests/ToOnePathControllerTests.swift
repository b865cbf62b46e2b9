import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// A controller ordered and sectioned by a column two or three to-one links away reads its
/// results again when any table on the path changes, and each change set is exact.
@MainActor @Suite struct ToOnePathControllerTests {
    /// An item of a list, which a person owns, who may be on a team.
    struct Item: StoreModel, Equatable {
        static let tableName = "item"
        var id: Int64?
        var title: String
    }

    static let itemList = ToOneLink(name: "list", childTable: "item", foreignKey: "list_id", parentTable: "list")
    static let listOwner = ToOneLink(name: "owner", childTable: "list", foreignKey: "owner_id", parentTable: "person")
    static let personTeam = ToOneLink(name: "team", childTable: "person", foreignKey: "team_id", parentTable: "team")

    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: """
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE person(id INTEGER PRIMARY KEY, team_id INTEGER REFERENCES team(id), name TEXT NOT NULL);
                CREATE TABLE list(id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES person(id), name TEXT NOT NULL);
                CREATE TABLE item(id INTEGER PRIMARY KEY, list_id INTEGER REFERENCES list(id), title TEXT NOT NULL);
                INSERT INTO team VALUES (1, 'Zeta'), (2, 'Alpha');
                INSERT INTO person VALUES (1, 1, 'Bob'), (2, 2, 'Ann'), (3, NULL, 'Carl');
                INSERT INTO list VALUES (1, 1, 'Home'), (2, 2, 'Work'), (3, NULL, 'Loose'), (4, 3, 'Gym');
                INSERT INTO item(list_id, title) VALUES (1, 'dishes'), (2, 'report'), (3, 'stamps'), (4, 'run'), (2, 'mail');
                """)
    }

    private func follow(_ column: Column) throws -> ReplayChecker<Item> {
        let request = StoreRequest<Item>().order(column.ascending, Column("title").ascending).sectioned(by: column)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let plan = try store.read { db in try FetchPlan(request, db: db, registered: []) }
        #expect(!plan.isIncremental, "a path of two links or more is read again on each change (see the Relationships article)")
        return ReplayChecker(controller)
    }

    @Test func renamingAnOwnerMovesTheItemsOfHerListsToItsSection() async throws {
        let checker = try follow(Column("name", through: [Self.itemList, Self.listOwner]))
        #expect(checker.controller.sections.map(\.name) == [nil, "Ann", "Bob", "Carl"])
        try await store.write { db in try db.execute(sql: "UPDATE person SET name = 'Zoe' WHERE id = 2") }
        #expect(try await checker.check(store))
        #expect(checker.controller.sections.map(\.name) == [nil, "Bob", "Carl", "Zoe"])
        try await store.write { db in
            try db.execute(sql: "UPDATE list SET owner_id = 1 WHERE id = 4")
            try db.execute(sql: "INSERT INTO item(list_id, title) VALUES (3, 'new')")
        }
        #expect(try await checker.check(store))
        #expect(checker.controller.sections.map(\.name) == [nil, "Bob", "Zoe"])
    }

    @Test func renamingATeamThreeLinksAwayRegroupsTheItems() async throws {
        let checker = try follow(Column("name", through: [Self.itemList, Self.listOwner, Self.personTeam]))
        #expect(checker.controller.sections.map(\.name) == [nil, "Alpha", "Zeta"])
        try await store.write { db in try db.execute(sql: "UPDATE team SET name = 'Omega' WHERE id = 2") }
        #expect(try await checker.check(store))
        try await store.write { db in try db.execute(sql: "UPDATE person SET team_id = 1 WHERE id = 3") }
        #expect(try await checker.check(store))
        #expect(checker.controller.sections.map(\.name) == [nil, "Omega", "Zeta"])
        #expect(checker.controller.numberOfObjects == 5)
    }
}
