import Foundation
import SQLiteStore
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

/// `SyncClient` against real server processes on a real PostgreSQL: stores converge, the
/// outbox is acknowledged only after the server stored it, the cursor follows the applies,
/// live mode follows remote writes, and controllers see remote changes like local ones.
@Suite("Sync client", .serialized, .timeLimit(.minutes(2)))
struct SyncClientTests {
    @Test("What one store writes reaches another through the server, inserts, updates and deletes")
    func twoStoresConverge() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 2)
        let (a, b) = (clients.stores[0], clients.stores[1])
        try await a.write { db in
            try db.execute(sql: "INSERT INTO items(id, title, n) VALUES ('x', 'one', 1), ('y', 'two', 2), ('z', 'three', 3)")
        }
        let first = try await SyncClient(store: a, server: server.url, token: token).synchronize()
        #expect(first.pushed == 9 && first.pulled == 0)
        #expect(try a.sync.pendingChanges().changes.isEmpty)
        #expect(try await SyncClient(store: b, server: server.url, token: token).synchronize().pulled == 9)
        try await b.write { db in
            try db.execute(sql: "UPDATE items SET title = 'TWO' WHERE id = 'y'")
            try db.execute(sql: "DELETE FROM items WHERE id = 'z'")
        }
        try await SyncClient(store: b, server: server.url, token: token).synchronize()
        try await SyncClient(store: a, server: server.url, token: token).synchronize()
        #expect(try SyncedStores.dump(a, table: "items") == SyncedStores.dump(b, table: "items"))
        #expect(try SyncedStores.dump(a, table: "items") == ["'x'|'one'|1|NULL", "'y'|'TWO'|2|NULL"])
        let stored = try await ServerDatabase.changes(in: fixture.database)
        #expect(stored.count == 11)
    }

    @Test("A push whose answer was lost is sent again and stored once; the outbox empties only after the server answered")
    func lostAnswer() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 1)
        let store = clients.stores[0]
        try await store.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('x', 'one')") }
        // The server stores the push, and its answer never reaches the client.
        let batch = try store.sync.pendingChanges()
        let delivered = try await HTTP.send(
            "POST", server.url.appendingPathComponent(SyncWireFormat.pushPath), token: token,
            body: try JSONEncoder().encode(batch.pushRequest))
        #expect(delivered.status == 200)
        #expect(try store.sync.pendingChanges().changes.count == batch.changes.count)
        // A push to a server that is down fails as unreachable and keeps the outbox.
        let down = URL(string: "http://127.0.0.1:\(try PostgresCluster.freePort())")!
        await #expect(throws: SyncServerError.self) { try await SyncClient(store: store, server: down, token: token).synchronize() }
        #expect(try store.sync.pendingChanges().changes.count == batch.changes.count)
        let resent = try await SyncClient(store: store, server: server.url, token: token).synchronize()
        #expect(resent.pushed == batch.changes.count)
        #expect(try store.sync.pendingChanges().changes.isEmpty)
        let stored = try await ServerDatabase.changes(in: fixture.database)
        #expect(stored.map(\.sequence) == batch.changes.map(\.id.sequence))
    }

    /// A copy of a store's file (a restored backup, a database copied to another machine) keeps
    /// its device id, numbers its next changes as the original numbers its own, and never pulls
    /// the original's changes after the copy, which are its own by id. The copy below only reads:
    /// its first pull's answer names a change of the device it never numbered.
    @Test("A copy that only reads is refused at its first pull, takes a new device id, and then holds its original's later changes")
    func readOnlyCopy() async throws {
        let scenario = try await CopiedStore()
        try await scenario.other.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('w', 'other')") }
        try await scenario.client(scenario.other).synchronize()
        try await scenario.client(scenario.copy).synchronize()
        #expect(try scenario.copy.sync.deviceID() != scenario.device && scenario.original.sync.deviceID() == scenario.device)
        let expected = ["'w'|'other'|NULL|NULL", "'x'|'one'|NULL|NULL", "'y'|'original'|NULL|NULL"]
        #expect(try SyncedStores.dump(scenario.copy, table: "items") == expected, "the original's 'y' reached the copy")
        try await scenario.expectConverged(items: expected)
    }

    /// Here the original pushes its next change first; the copy's push gives the same change id
    /// with other contents, which the server refuses. Nothing of the copy's is lost: it goes
    /// again under the copy's new id, and every device ends with the same tables and sync state.
    @Test("A copy that writes is refused at its push, takes a new device id, and its changes reach every device")
    func writingCopy() async throws {
        let scenario = try await CopiedStore()
        let copy = scenario.copy
        try await copy.write { db in
            try db.execute(sql: "INSERT INTO items(id, title) VALUES ('z', 'copy')")
            try db.execute(sql: "UPDATE items SET title = 'copy' WHERE id = 'x'")
        }
        try await copy.write { db in try db.execute(sql: "DELETE FROM items WHERE id = 'z'") }
        try await copy.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('v', 'copy')") }
        let progress = try await scenario.client(copy).synchronize()
        #expect(progress.pushed == 8, "\(progress)")
        #expect(try copy.sync.deviceID() != scenario.device && scenario.original.sync.deviceID() == scenario.device)
        #expect(try copy.sync.pendingChanges().changes.isEmpty)
        try await scenario.expectConverged(items: ["'v'|'copy'|NULL|NULL", "'x'|'copy'|NULL|NULL", "'y'|'original'|NULL|NULL"])
    }

    @Test("Live: a copy running the client takes a new device id when refused, and goes on syncing both ways")
    func liveCopy() async throws {
        let scenario = try await CopiedStore()
        let (original, copy) = (scenario.original, scenario.copy)
        let running = Task { try await scenario.client(copy).run() }
        let both = ["'x'|'one'|NULL|NULL", "'y'|'original'|NULL|NULL"]
        #expect(try await Self.eventually { try SyncedStores.dump(copy, table: "items") == both }, "the original's 'y' reached the copy")
        #expect(try copy.sync.deviceID() != scenario.device)
        try await copy.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('z', 'copy')") }
        #expect(
            try await Self.eventually {
                _ = try await scenario.client(original).synchronize()
                return try SyncedStores.dump(original, table: "items") == both + ["'z'|'copy'|NULL|NULL"]
            }, "the copy's 'z' reached the original")
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
    }

    /// Whether `condition` holds within about 30 seconds, tried every 20 ms.
    private static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<1_500 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// A device's own pushes land on the server while its pulls wait (live mode pushes and
    /// pulls at once): each pull answer names the device's highest change the server holds,
    /// which the device has always given already, however they interleave.
    @Test("Live: a store writing while it pushes and pulls at once is never taken for a copy of itself")
    func liveWriterIsNotACopy() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 2)
        let (a, b) = (clients.stores[0], clients.stores[1])
        let writing = Task { try await SyncClient(store: a, server: server.url, token: token).run() }
        let reading = Task { try await SyncClient(store: b, server: server.url, token: token).run() }
        // Paced slower than a push, so that each of A's writes is pushed while A's pull waits
        // (a long poll), and that push wakes the pull: its answer names a change A gave its
        // sequence after the pull was sent.
        for index in 0..<Self.liveWrites {
            try await a.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES (?, 'live')", arguments: ["a\(index)"]) }
            if index.isMultiple(of: 4) {
                try await b.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES (?, 'live')", arguments: ["b\(index)"]) }
            }
            try await Task.sleep(for: .milliseconds(15))
        }
        // Until both outboxes are empty; a client that stopped (refused) leaves its own full.
        var polls = 0
        while try !a.sync.pendingChanges().changes.isEmpty || !b.sync.pendingChanges().changes.isEmpty, polls < 1_500 {
            try await Task.sleep(for: .milliseconds(20))
            polls += 1
        }
        for running in [writing, reading] {
            running.cancel()
            await #expect(throws: CancellationError.self) { try await running.value }
        }
    }

    private static let liveWrites = 60

    @Test("A refused token and a schema newer than the server's are typed errors, and nothing moves")
    func refusals() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer(schemaVersion: 1)
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 1, migrations: try SyncedStores.migrations(version: 5))
        let store = clients.stores[0]
        try await store.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('x', 'one')") }
        do {
            try await SyncClient(store: store, server: server.url, token: token + "x").synchronize()
            Issue.record("a forged token synced")
        } catch let error as SyncServerError {
            #expect(error.reason == .unauthorized && error.status == 401 && !error.isTransient)
        }
        do {
            try await SyncClient(store: store, server: server.url, token: token).run()
            Issue.record("run ended without an error")
        } catch let error as SyncServerError {
            #expect(error.reason == .upgradeRequired && error.status == 409 && error.message.contains("upgrade the server"))
        }
        #expect(try store.sync.pendingChanges().changes.count == 3)
        #expect(try await ServerDatabase.changes(in: fixture.database).isEmpty)
    }

    @Test("A change of a table or column this store does not sync is held, naming it, the rest applied; it applies once the store syncs it")
    func pulledChangeNotSyncedHere() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let writer = try SyncedStores(count: 1)
        try await writer.stores[0].write { db in
            try db.execute(sql: "INSERT INTO items(id, title, note) VALUES ('x', 'one', x'00')")
            try db.execute(sql: "INSERT INTO tags(id, item, label) VALUES ('g', 'x', 'red')")
        }
        #expect(try await SyncClient(store: writer.stores[0], server: server.url, token: token).synchronize().pushed == 5)
        // One device syncs only items; another's items have no note column, at the same schema version.
        let itemsOnly = try SyncedStores(count: 1, tables: ["items"])
        let noNote = FileManager.default.temporaryDirectory.appendingPathComponent("sync-migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: noNote, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: noNote) }
        try Data("CREATE TABLE items(id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', n INTEGER);".utf8)
            .write(to: noNote.appendingPathComponent("0001_items.sql"))
        let withoutNote = try SyncedStores(count: 1, migrations: noNote, tables: ["items"])
        // Held: the tag's two cells, for both; the item's note too, for the store without the column.
        for (stores, named, heldCount) in [(itemsOnly, "column \"note\"", 2), (withoutNote, "column \"note\"", 3)] {
            let store = stores.stores[0]
            for _ in 0..<2 {  // the snapshot, then a pull: the held changes are tried again, and held again
                try await SyncClient(store: store, server: server.url, token: token).synchronize()
                let held = try store.sync.heldChanges()
                #expect(held.count == heldCount && held.allSatisfy { $0.error.code == .mismatch })
                #expect(held.filter { $0.error.message.contains("table \"tags\"") }.count == 2)
                #expect(held.contains { $0.error.message.contains(named) } == (heldCount == 3))
            }
            let count = try await store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM items") }
            #expect(count == 1, "the item applied beside what was held")
        }
        // Once the device syncs the table, its next sync applies what was held.
        itemsOnly.tables = SyncedStores.tables
        try await itemsOnly.reopen(0)
        try await SyncClient(store: itemsOnly.stores[0], server: server.url, token: token).synchronize()
        #expect(try itemsOnly.stores[0].sync.heldChanges().isEmpty)
        #expect(try SyncedStores.dump(itemsOnly.stores[0], table: "tags") == ["'g'|'x'|'red'"])
    }

    @Test("Live: a store running the client follows another's writes through a second server process, until cancelled")
    func live() async throws {
        let fixture = try ServerFixture()
        let first = try await fixture.startServer()
        let second = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 2)
        let (a, b) = (clients.stores[0], clients.stores[1])
        var remote = b.changes(in: ["items"]).makeAsyncIterator()
        let running = Task { try await SyncClient(store: b, server: second.url, token: token).run() }
        let writer = Task { try await SyncClient(store: a, server: first.url, token: token).run() }
        try await a.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('x', 'live')") }
        let arrived = try #require(await remote.next())
        #expect(arrived.isRemote)
        #expect(try SyncedStores.dump(b, table: "items") == ["'x'|'live'|NULL|NULL"])
        try await a.write { db in try db.execute(sql: "UPDATE items SET n = 7 WHERE id = 'x'") }
        let updated = try #require(await remote.next())
        #expect(updated.isRemote && updated.changes(in: "items").updated.count == 1)
        writer.cancel()
        await #expect(throws: CancellationError.self) { try await writer.value }
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
    }

    @Test("A controller on another store delivers, after a sync, the change set a fresh read implies")
    @MainActor func controllerFollowsRemoteChanges() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 2)
        let (a, b) = (clients.stores[0], clients.stores[1])
        try await a.write { db in
            try db.execute(sql: "INSERT INTO items(id, title, n) VALUES ('p', 'a', 1), ('q', 'b', 2), ('r', 'c', 3), ('s', 'd', 4)")
        }
        try await SyncClient(store: a, server: server.url, token: token).synchronize()
        try await SyncClient(store: b, server: server.url, token: token).synchronize()
        let request = StoreRequest<Item>().order(Column("title").ascending)
        let controller = FetchedResultsController(store: b, request: request)
        try controller.performFetch()
        let before = fresh(b)
        var changes = controller.changes().makeAsyncIterator()
        try await a.write { db in
            try db.execute(sql: "UPDATE items SET n = 20 WHERE id = 'q'")  // in place
            try db.execute(sql: "UPDATE items SET title = 'z' WHERE id = 'p'")  // moves to the end
            try db.execute(sql: "DELETE FROM items WHERE id = 'r'")
            try db.execute(sql: "INSERT INTO items(id, title) VALUES ('t', 'bb')")
        }
        try await SyncClient(store: a, server: server.url, token: token).synchronize()
        try await SyncClient(store: b, server: server.url, token: token).synchronize()
        let change = try #require(try await changes.next())
        let after = fresh(b)
        #expect(try change.changeSet.applied(to: before, new: after) == after)
        #expect(change.changeSet.deletes.count == 1 && change.changeSet.inserts.count == 1 && change.changeSet.moves.count == 1)
        #expect(change.changeSet.updates.contains(IndexPath(row: 1, section: 0)))
        #expect(try controller.fetchedObjects.map(\.id) == ["q", "t", "s", "p"])
        #expect(try controller.fetchedObjects.first?.n == 20)
    }

    private func fresh(_ store: Store) -> SectionedSnapshot<ObjectID> {
        let rows = (try? store.read { db in try db.fetchRows(sql: "SELECT rowid FROM items ORDER BY title, rowid") }) ?? []
        return SectionedSnapshot(
            ids: rows.map { row in
                guard case .integer(let rowID) = row[0] else { return ObjectID(table: "items", rowID: -1) }
                return ObjectID(table: "items", rowID: rowID)
            })
    }
}

/// The snippets of the SyncBetweenDevices article and of `SyncClient`'s documentation.
@Suite("Sync article snippets", .serialized)
struct SyncArticleSnippetTests {
    @Test("Set up a server: a client synchronizes")
    func synchronize() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let serverURL = server.url
        let clients = try SyncedStores(count: 1)
        let store = clients.stores[0]
        try await store.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('x', 'one')") }

        let client = SyncClient(store: store, server: serverURL, token: token)
        let progress = try await client.synchronize()
        print("sent \(progress.pushed), received \(progress.pulled)")

        #expect(progress.pushed == 3 && progress.pulled == 0)  // title, n and note of the new row
    }
}

/// A server and three stores: the original with an item 'x' synced, another, and a copy of the
/// original's file, made before the original synced its next item 'y': a change of the copy's
/// device id that the copy never pulls as its own.
private struct CopiedStore {
    let fixture: ServerFixture
    let server: SyncServerProcess
    let token: String
    let clients: SyncedStores
    /// The device id of the original, and of the copy as it was copied.
    let device: String

    var original: Store { clients.stores[0] }
    var other: Store { clients.stores[1] }
    var copy: Store { clients.stores[2] }

    init() async throws {
        fixture = try ServerFixture()
        server = try await fixture.startServer()
        token = try fixture.token(for: "alice")
        clients = try SyncedStores(count: 2)
        try await clients.stores[0].write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('x', 'one')") }
        try await SyncClient(store: clients.stores[0], server: server.url, token: token).synchronize()
        try await clients.addCopy(of: 0)
        device = try clients.stores[0].sync.deviceID()
        try await clients.stores[0].write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('y', 'original')") }
        try await SyncClient(store: clients.stores[0], server: server.url, token: token).synchronize()
    }

    func client(_ store: Store) -> SyncClient { SyncClient(store: store, server: server.url, token: token) }

    /// Syncs the three stores twice over, then expects each to hold `items` and the same sync state.
    func expectConverged(items: [String]) async throws {
        for _ in 0..<2 {
            for store in clients.stores { try await client(store).synchronize() }
        }
        for store in clients.stores {
            #expect(try SyncedStores.dump(store, table: "items") == items)
            #expect(try SyncedStores.syncState(store) == SyncedStores.syncState(original))
        }
    }
}
