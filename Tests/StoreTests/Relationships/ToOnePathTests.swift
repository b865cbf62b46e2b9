import SQLiteStoreCore
import SQLiteStoreMacros
import Testing

/// Columns two and three to-one links away: items by their list's owner's name, and by the
/// owner's team, checked against the same order written with joins.
@Suite("Columns through several to-one links")
struct ToOnePathTests {
    @StoreModel
    struct Team {
        var id: Int64?
        var name: String
    }

    @StoreModel
    struct Person {
        var id: Int64?
        @StoreColumn("team_id") var teamID: Int64?
        var name: String

        static let team = ToOne<Person, Team>("team", foreignKey: "team_id")
    }

    @StoreModel(table: "list")
    struct TodoList {
        var id: Int64?
        @StoreColumn("owner_id") var ownerID: Int64?
        var name: String

        static let owner = ToOne<TodoList, Person>("owner", foreignKey: "owner_id")
    }

    @StoreModel
    struct Item {
        var id: Int64?
        @StoreColumn("list_id") var listID: Int64?
        var title: String

        static let list = ToOne<Item, TodoList>("list", foreignKey: "list_id")
    }

    let directory: TemporaryDirectory
    let store: Store

    /// Owners' names differ only in case where NOCASE matters; some lists have no owner,
    /// some items no list, and one owner no team.
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: """
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE person(id INTEGER PRIMARY KEY, team_id INTEGER REFERENCES team(id), name TEXT NOT NULL COLLATE NOCASE);
                CREATE TABLE list(id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES person(id), name TEXT NOT NULL);
                CREATE TABLE item(id INTEGER PRIMARY KEY, list_id INTEGER REFERENCES list(id), title TEXT NOT NULL);
                INSERT INTO team VALUES (1, 'Zeta'), (2, 'Alpha');
                INSERT INTO person VALUES (1, 1, 'bob'), (2, 2, 'Ann'), (3, NULL, 'Carl'), (4, 1, 'alice');
                INSERT INTO list VALUES (1, 1, 'Home'), (2, 2, 'Work'), (3, NULL, 'Loose'), (4, 3, 'Gym'), (5, 4, 'Books');
                INSERT INTO item(list_id, title) VALUES
                    (1, 'dishes'), (2, 'report'), (3, 'stamps'), (NULL, 'orphan'), (4, 'run'), (5, 'novel'), (2, 'mail');
                """)
    }

    private func titles(_ request: StoreRequest<Item>) throws -> [String] {
        try store.read { db in try db.fetch(request).map(\.title) }
    }

    private func titles(sql: String) throws -> [String] {
        try store.read { db in try db.fetchRows(sql: sql).map { row in if case .text(let title) = row[0] { title } else { "" } } }
    }

    @Test("Ordered by the list's owner's name, with the owner's declared collation (NOCASE), NULL first: as a join orders them")
    func twoHopsOrder() throws {
        let byOwner = StoreRequest<Item>().order(Item.list.then(TodoList.owner).name.ascending, Item.columns.title.ascending)
        let joined = try titles(
            sql: """
                SELECT item.title FROM item LEFT JOIN list ON list.id = item.list_id LEFT JOIN person ON person.id = list.owner_id
                ORDER BY person.name, item.title
                """)
        #expect(try titles(byOwner) == joined)
        #expect(try titles(byOwner) == ["orphan", "stamps", "novel", "mail", "report", "dishes", "run"])
    }

    @Test("Three hops: ordered by the owner's team, filtered by it, described by its path")
    func threeHops() throws {
        let team = Item.list.then(TodoList.owner).then(Person.team).name
        let byTeam = StoreRequest<Item>().filter(team != "Zeta").order(team.descending, Item.columns.title.ascending)
        let joined = try titles(
            sql: """
                SELECT item.title FROM item LEFT JOIN list ON list.id = item.list_id LEFT JOIN person ON person.id = list.owner_id
                LEFT JOIN team ON team.id = person.team_id WHERE team.name IS NOT 'Zeta' ORDER BY team.name DESC, item.title
                """)
        #expect(try titles(byTeam) == joined)
        #expect(try titles(byTeam) == ["mail", "report", "orphan", "run", "stamps"], "`!=` is `IS NOT`: a broken path is not Zeta")
        #expect(team.column.description == "list.owner.team.name")
        #expect(team.column.ownColumn == "list_id")
        #expect(team.column.relatedTable == "team")
    }

    @Test("The Relationships article's paths")
    func articleSnippet() throws {
        let byOwner = StoreRequest<Item>().order(Item.list.then(TodoList.owner).name.ascending)
        let team = Item.list.then(TodoList.owner).then(Person.team).name
        let zeta = StoreRequest<Item>().filter(team == "Zeta").order(team.ascending)
        #expect(try titles(byOwner) == ["stamps", "orphan", "novel", "report", "mail", "dishes", "run"], "ties in rowid order")
        #expect(try titles(zeta) == ["dishes", "novel"])
    }

    @Test("Values are bound and every identifier of every hop quoted; the expression names each hop's table")
    func boundAndQuoted() throws {
        let hostile = "'); DROP TABLE person; --"
        let predicate = Item.list.then(TodoList.owner).name == hostile
        #expect(!predicate.expression.sql.contains(hostile))
        // Compared inside the subquery, in the column's collation, and on NULL when no row is found.
        #expect(predicate.expression.arguments == [.text(hostile), .text(hostile)])
        #expect(
            predicate.expression.sql
                == #"coalesce((SELECT "person"."name" IS ? FROM "person" WHERE "person"."id" = (SELECT "list"."owner_id" FROM "list" WHERE "list"."id" = "item"."list_id")), NULL IS ?)"#
        )
        #expect(predicate.expression.relatedTables == ["list", "person"])
        #expect(try titles(StoreRequest<Item>().filter(predicate)).isEmpty)
        #expect(try titles(StoreRequest<Item>().filter(Item.list.then(TodoList.owner).name == "Ann")) == ["report", "mail"])
    }
}
