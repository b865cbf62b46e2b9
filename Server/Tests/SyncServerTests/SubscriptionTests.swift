import Foundation
import SQLiteStore
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

/// Subscriptions on a real server and PostgreSQL: a device that subscribes holds only the rows
/// its subscriptions cover, read with their priority and progress; rows enter and leave it as
/// they move or change; ending a subscription removes its rows here only; a device that ends
/// its last one holds its account's whole data again.
@Suite("Subscriptions", .serialized, .timeLimit(.minutes(2)))
struct SubscriptionTests {
    let fixture: ServerFixture
    let server: SyncServerProcess
    let ann: String
    let ben: String
    /// 0 and 1: ann's devices; 2: ben's.
    let devices: SyncedStores

    init() async throws {
        fixture = try ServerFixture()
        server = try await SharedLists.server(fixture, options: SharedListsSchema.subscriptionOptions)
        ann = try fixture.token(for: "ann")
        ben = try fixture.token(for: "ben")
        devices = try SharedLists.devices(3)
    }

    private func client(_ index: Int) -> SyncClient {
        var client = SyncClient(store: devices.stores[index], server: server.url, token: index < 2 ? ann : ben)
        client.batchSize = 2
        return client
    }

    @discardableResult
    private func sync(_ index: Int) async throws -> SyncClient.Progress { try await client(index).synchronize() }

    private func keys(_ index: Int, _ table: String) throws -> [String] { try SharedLists.keys(devices.stores[index], table) }

    /// Ann's lists `home` and `work`, with items (one under another) and a tag.
    private func annWritesLists() async throws {
        try await devices.stores[0].write { db in
            try db.execute(
                script: """
                    INSERT INTO lists(id, title) VALUES ('home', 'Home'), ('work', 'Work'), ('trip', 'Home');
                    INSERT INTO items(id, list, title) VALUES ('milk', 'home', 'Milk'), ('eggs', 'home', 'Eggs'),
                        ('memo', 'work', 'Memo');
                    INSERT INTO items(id, parent, title) VALUES ('oat', 'milk', 'Oat');
                    INSERT INTO tags(id, item, label) VALUES ('t1', 'oat', 'dairy'), ('t2', 'memo', 'paper');
                    """)
        }
        try await sync(0)
    }

    @Test("A new device that subscribes to one list holds that list, its items and their tags, and nothing else")
    func subscribesToOneList() async throws {
        try await annWritesLists()
        let list = try devices.stores[1].sync.subscribe(to: "list", parameter: .text("home"), priority: 2)
        #expect(list.isComplete == false)
        try await sync(1)
        #expect(try keys(1, "lists") == ["home"])
        #expect(try keys(1, "items") == ["eggs", "milk", "oat"])
        #expect(try keys(1, "tags") == ["t1"])
        let read = try devices.stores[1].sync.subscriptions()
        #expect(read.map(\.isComplete) == [true])
        #expect(read.first?.rowsRead == 5)

        // Ann moves an item out of the list, and another in: it arrives whole, columns and tag.
        try await devices.stores[0].write { db in
            try db.execute(sql: "UPDATE items SET list = 'work' WHERE id = 'eggs'")
            try db.execute(sql: "UPDATE items SET list = 'home' WHERE id = 'memo'")
        }
        try await sync(0)
        try await sync(1)
        #expect(try SharedLists.dump(devices.stores[1], "items") == ["'memo'|'home'|'Memo'", "'milk'|'home'|'Milk'", "'oat'|NULL|'Oat'"])
        #expect(try keys(1, "tags") == ["t1", "t2"])
        // An item moved under an item of another list leaves with its tags.
        try await devices.stores[0].write { db in try db.execute(sql: "UPDATE items SET list = 'work' WHERE id = 'milk'") }
        try await sync(0)
        try await sync(1)
        #expect(try keys(1, "items") == ["memo"])
        #expect(try keys(1, "tags") == ["t2"])
    }

    @Test("Subscribing to a column's value, ending a subscription here only, and ending the last one")
    func subscriptionsComeAndGo() async throws {
        try await annWritesLists()
        try await sync(1)
        #expect(try keys(1, "lists") == ["home", "trip", "work"], "without subscriptions, the whole account")
        let titled = try devices.stores[1].sync.subscribe(to: "titled", parameter: .text("Home"))
        let work = try devices.stores[1].sync.subscribe(to: "list", parameter: .text("work"), priority: 5)
        #expect(try devices.stores[1].sync.subscriptions().map(\.name) == ["list", "titled"], "highest priority first")
        try await sync(1)
        #expect(try keys(1, "lists") == ["home", "trip", "work"])
        #expect(try keys(1, "items") == ["memo"], "the titled lists come without their items")
        #expect(try keys(1, "tags") == ["t2"])

        // Ended here: the work list leaves at once, with no sync.
        try await devices.stores[1].sync.unsubscribe(work.id)
        #expect(try keys(1, "lists") == ["home", "trip"])
        #expect(try keys(1, "items") == [])
        #expect(try devices.stores[1].sync.pendingChanges().changes.isEmpty, "nothing of it is sent")
        try await sync(0)
        #expect(try keys(0, "items") == ["eggs", "memo", "milk", "oat"], "nothing of it is deleted on the server")

        // A list renamed here leaves once the server has the change.
        try await devices.stores[1].write { db in try db.execute(sql: "UPDATE lists SET title = 'Away' WHERE id = 'trip'") }
        try await sync(1)
        #expect(try keys(1, "lists") == ["home"])
        try await sync(0)
        #expect(try SharedLists.dump(devices.stores[0], "lists").contains("'trip'|'Away'"))

        // Renamed on another device, a list enters.
        try await devices.stores[0].write { db in try db.execute(sql: "UPDATE lists SET title = 'Home' WHERE id = 'work'") }
        try await sync(0)
        try await sync(1)
        #expect(try SharedLists.dump(devices.stores[1], "lists") == ["'home'|'Home'", "'work'|'Home'"])

        // The last one ended: the whole account again.
        try await devices.stores[1].sync.unsubscribe(titled.id)
        try await sync(1)
        #expect(try keys(1, "lists") == ["home", "trip", "work"])
        #expect(try keys(1, "items") == ["eggs", "memo", "milk", "oat"])
    }

    @Test(
        "Ending a subscription: its rows leave in one commit, then the sync state forgets them; an eviction cut between the two finishes when the store opens"
    )
    func evictionInTwoTransactions() async throws {
        try await annWritesLists()
        let work = try devices.stores[1].sync.subscribe(to: "list", parameter: .text("work"))
        let titled = try devices.stores[1].sync.subscribe(to: "titled", parameter: .text("Work"))
        try await sync(1)
        #expect(try keys(1, "lists") == ["work"])
        #expect(try keys(1, "items") == ["memo"])
        #expect(try keys(1, "tags") == ["t2"])

        // The list stays, covered by the other subscription; its item and tag leave.
        var commits = devices.stores[1].changes(in: SharedListsSchema.tables).makeAsyncIterator()
        try await devices.stores[1].sync.unsubscribe(work.id)
        #expect(try keys(1, "lists") == ["work"])
        #expect(try keys(1, "items") == [])
        #expect(try keys(1, "tags") == [])
        try await devices.stores[1].write { db in try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('desk', 'Desk')") }
        let eviction = try #require(await commits.next())
        #expect(eviction.isRemote)
        #expect(eviction.changes(in: "items").deleted.count == 1)
        #expect(eviction.changes(in: "tags").deleted.count == 1)
        #expect(eviction.changes(in: "lists").isEmpty)
        let next = try #require(await commits.next())
        #expect(next.changes(in: "lists").inserted.count == 1, "the second transaction publishes nothing")
        #expect(try syncState(1) == ["lists desk", "lists work \(titled.id)"])

        // Cut after the first transaction: the rows have left, the sync state still holds them.
        let again = try devices.stores[1].sync.subscribe(to: "list", parameter: .text("work"))
        try await sync(1)
        #expect(try keys(1, "lists") == ["work"], "the list made here outside the subscriptions was sent, then left")
        #expect(try keys(1, "items") == ["memo"])
        try devices.stores[1].writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER the_app_stops BEFORE DELETE ON main.store_sync_rows
                    BEGIN SELECT RAISE(ABORT, 'the app stops here'); END
                    """)
        }
        await #expect(throws: StoreError.self) { try await devices.stores[1].sync.unsubscribe(again.id) }
        #expect(try keys(1, "items") == [])
        #expect(try syncState(1).contains("items memo \(again.id)"))
        #expect(try syncState(1).contains("eviction under way"))
        try await devices.reopen(1)
        #expect(try syncState(1) == ["lists work \(titled.id)"], "finished when the store opened")
        #expect(try keys(1, "lists") == ["work"])

        let last = try devices.stores[1].sync.subscribe(to: "list", parameter: .text("work"))
        try await sync(1)
        #expect(try keys(1, "items") == ["memo"])
        #expect(try keys(1, "tags") == ["t2"])
        #expect(try syncState(1).contains("items memo \(last.id)"))
    }

    /// What store `index`'s sync state holds of rows: each one's table, key and the
    /// subscriptions that cover it, and whether it notes an eviction under way.
    private func syncState(_ index: Int) throws -> [String] {
        try devices.stores[index].read { db in
            let rows = try db.fetchRows(
                sql: """
                    SELECT tbl || ' ' || pk || rtrim(' ' || trim(coalesce(subscriptions, ''))) FROM store_sync_rows
                    UNION ALL SELECT 'cells of ' || tbl || ' ' || pk FROM store_sync_cells
                        WHERE (tbl, pk) NOT IN (SELECT tbl, pk FROM store_sync_rows) GROUP BY tbl, pk
                    UNION ALL SELECT 'eviction under way' FROM store_sync_meta WHERE key = 'eviction'
                    ORDER BY 1
                    """)
            return rows.compactMap { if case .text(let line) = $0[0] { line } else { nil } }
        }
    }

    @Test("The sync article's subscriptions, as it shows them")
    func articleSnippet() async throws {
        try await annWritesLists()
        let store = devices.stores[1]
        let client = client(1)
        let list = try store.sync.subscribe(to: "list", parameter: .text("groceries"), priority: 1)
        try store.sync.subscribe(to: "titled", parameter: .text("Home"))
        try await client.synchronize()
        let read = try store.sync.subscriptions()  // each with rowsRead and isComplete
        #expect(read.map(\.isComplete) == [true, true])
        #expect(read.map(\.rowsRead) == [0, 2], "no list groceries; two titled Home")
        #expect(try keys(1, "lists") == ["home", "trip"])
        try await store.sync.unsubscribe(list.id)
        #expect(try store.sync.subscriptions().map(\.name) == ["titled"])
    }

    @Test("Own roots and a shared list, a root the account may not read, and a name the server does not declare")
    func ownRootsSharesAndRefusals() async throws {
        try await annWritesLists()
        try await devices.stores[2].write { db in
            try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('bens', 'Ben''s')")
            try db.execute(sql: "INSERT INTO items(id, list, title) VALUES ('pen', 'bens', 'Pen')")
        }
        try await sync(2)
        try devices.stores[2].sync.subscribe(to: "list", parameter: .text("home"))
        try await sync(2)
        #expect(try keys(2, "lists") == [], "ann's list is not shared with ben: covered, it holds nothing of it")
        let mine = try devices.stores[2].sync.subscribe(to: "mine")
        try await sync(2)
        #expect(try keys(2, "lists") == ["bens"])
        #expect(try keys(2, "items") == ["pen"])

        try await client(0).share(table: "lists", key: .text("home"), with: "ben", as: .reader)
        try await sync(2)
        #expect(try keys(2, "lists") == ["bens", "home"])
        #expect(try keys(2, "items") == ["eggs", "milk", "oat", "pen"])
        try await devices.stores[2].sync.unsubscribe(mine.id)
        #expect(try keys(2, "lists") == ["home"])

        try await client(0).revoke(table: "lists", key: .text("home"), from: "ben")
        try await sync(2)
        #expect(try keys(2, "lists") == [])

        try devices.stores[2].sync.subscribe(to: "nothing")
        await #expect(throws: SyncServerError.self) { try await sync(2) }

    }
}
