import Foundation
import SQLiteStore
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

/// A device without a cursor reads the account's current state as a paged snapshot, against
/// real server processes on a real PostgreSQL: it converges with the devices that replayed the
/// changes, whatever is written while it reads, across a killed server and a restart from
/// scratch, and it reads only its own account's rows.
@Suite("Sync snapshots for new devices", .serialized, .timeLimit(.minutes(3)))
struct SyncSnapshotTests {
    @Test("A new device joining a store with history converges byte-identically, including changes pushed while it reads the snapshot")
    func newDeviceDuringWrites() async throws {
        let history = try await History()
        let (fixture, server, token) = (history.fixture, history.server, history.token)
        let (a, b, c) = (history.clients.stores[0], history.clients.stores[1], history.clients.stores[2])

        var joining = SyncClient(store: c, server: server.url, token: token)
        joining.batchSize = 2
        let snapshot = Task { try await joining.synchronize() }
        var random = SplitMix64(seed: 24)
        var pushedDuringSnapshot = 0
        for step in 0..<2_000 where try await !SyncedStores.hasCursor(c) {
            let wasReading = try await SyncedStores.isReadingSnapshot(c)
            try await Self.randomWrite(on: a, step: step, using: &random)
            try await SyncClient(store: a, server: server.url, token: token).synchronize()
            if wasReading, try await SyncedStores.isReadingSnapshot(c) { pushedDuringSnapshot += 1 }
        }
        _ = try await snapshot.value
        #expect(pushedDuringSnapshot > 0, "no change was pushed while the new device read its snapshot")

        for store in [a, b, c, a] { try await SyncClient(store: store, server: server.url, token: token).synchronize() }
        try await Self.expectConverged([a, b, c], database: fixture.database)
    }

    @Test("A controller on a device reading its snapshot delivers, page after page, the change sets its results imply")
    @MainActor func controllerDuringSnapshot() async throws {
        let history = try await History()
        let (server, token, c) = (history.server, history.token, history.clients.stores[2])
        // Rows the device had before it synced: one of its own, one that the snapshot's k5 meets.
        try await c.write { db in
            try db.execute(sql: "INSERT INTO items(id, title, n) VALUES ('c1', 'only on c', 7), ('k5', 'c''s k5', 0)")
        }
        let controller = FetchedResultsController(store: c, request: StoreRequest<Item>().order(Column("title").ascending))
        try controller.performFetch()
        let shownIDs = { SectionedSnapshot(ids: ((try? controller.fetchedObjects) ?? []).map(\.id)) }
        var shown = shownIDs()
        var changes = controller.changes().makeAsyncIterator()
        var joining = SyncClient(store: c, server: server.url, token: token)
        joining.batchSize = 7
        try await joining.synchronize()
        let expected = SectionedSnapshot(
            ids: try await c.read { db in try db.fetchRows(sql: "SELECT id FROM items ORDER BY title, rowid") }.map { row in
                if case .text(let id) = row[0] { id } else { "" }
            })
        var deliveries = 0
        while shown != expected {
            let change = try #require(try await changes.next())
            let now = shownIDs()
            #expect(try change.changeSet.applied(to: shown, new: now) == now)
            shown = now
            deliveries += 1
        }
        #expect(deliveries > 0 && shown == expected)
    }

    @Test("A snapshot cut by a killed server resumes where its last applied page ended; one restarted from scratch converges too")
    func interruptedSnapshot() async throws {
        let fixture = try ServerFixture()
        var server = try await fixture.startServer()
        let port = server.port
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 4)
        let (a, b) = (clients.stores[0], clients.stores[1])
        try await Self.writeHistory(a, b, server: server.url, token: token)
        for joiner in clients.stores[2...] {
            var client = SyncClient(store: joiner, server: server.url, token: token)
            client.batchSize = 1
            let snapshot = Task { try await client.synchronize() }
            while try await !SyncedStores.isReadingSnapshot(joiner), try await !SyncedStores.hasCursor(joiner) {
                try await Task.sleep(for: .milliseconds(1))
            }
            server.kill()
            await #expect(throws: SyncServerError.self) { try await snapshot.value }
            #expect(try await SyncedStores.isReadingSnapshot(joiner), "the snapshot ended before the server was killed")
            server = try await fixture.startServer(port: port)
            // Written after the cut: the resumed snapshot (bound to its cursor) leaves it to the pulls after it.
            try await a.write { db in try db.execute(sql: "UPDATE items SET title = 'after the cut' WHERE id = 'k1'") }
            try await SyncClient(store: a, server: server.url, token: token).synchronize()
        }
        // The last joiner forgets how far it read: it starts again from the first page.
        let restarted = clients.stores[3]
        try await restarted.write { db in try db.execute(sql: "DELETE FROM store_sync_meta WHERE key LIKE 'snapshot %'") }
        for store in clients.stores + [a] { try await SyncClient(store: store, server: server.url, token: token).synchronize() }
        try await Self.expectConverged(clients.stores, database: fixture.database)
    }

    @Test(
        "A snapshot shows only its account's rows, needs a valid token and the server's schema version, and keeps its cursor across pages")
    func snapshotRequests() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let alice = try fixture.token(for: "alice")
        let bob = try fixture.token(for: "bob")
        let clients = try SyncedStores(count: 2)
        try await Self.writeHistory(clients.stores[0], clients.stores[1], server: server.url, token: alice)

        let empty = try await HTTP.send("GET", ServerFixture.snapshotURL(server.url), token: bob)
        #expect(empty.status == 200)
        let bobsPage = try empty.decode(SyncSnapshotPage.self)
        #expect(bobsPage.rows.isEmpty && bobsPage.cursor == 0 && bobsPage.next == nil)
        for token in [nil, "sst_forged"] {
            let refused = try await HTTP.send("GET", ServerFixture.snapshotURL(server.url), token: token)
            #expect(refused.status == 401)
            #expect(try refused.decode(SyncWireError.self).code == .unauthorized)
        }
        let otherSchema = try await HTTP.send("GET", ServerFixture.snapshotURL(server.url, schemaVersion: 2), token: alice)
        #expect(otherSchema.status == 409)
        #expect(try otherSchema.decode(SyncWireError.self).code == .upgradeRequired)
        let aheadCursor = try await HTTP.send("GET", ServerFixture.snapshotURL(server.url, upTo: 1_000_000), token: alice)
        #expect(aheadCursor.status == 400)

        let pages = try await Self.snapshotPages(of: server.url, limit: 7, token: alice)
        let rows = pages.flatMap(\.rows)
        let stored = try await ServerDatabase.changes(in: fixture.database)
        #expect(Set(pages.map(\.cursor)).count == 1 && pages[0].cursor > 0)
        #expect(Set(rows.map { "\($0.table) \($0.key)" }).count == rows.count, "a row came twice")
        // Every item and tag ever written: 60 and 20, the 10 deleted items and their 3 tags with their delete.
        #expect(rows.count == 80)
        #expect(rows.filter { $0.deleted != nil }.count == 13)
        #expect(stored.allSatisfy { $0.account == "alice" })
    }

    @Test("Pages cut by the server's change limit lose no row, and a row with more changes than the limit comes alone, as its winners")
    func pagesBoundedByChanges() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer(options: ["--snapshot-page-changes", "6"])
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 3)
        let (a, b, c) = (clients.stores[0], clients.stores[1], clients.stores[2])
        try await Self.writeHistory(a, b, server: server.url, token: token)
        // Item 7 gets 12 more changes from two devices: more than a page may read on its own.
        for step in 0..<6 {
            for (store, column, value) in [(a, "title", DatabaseValue.text("edit \(step)")), (b, "n", .integer(Int64(step)))] {
                try await store.write { db in try db.execute(sql: "UPDATE items SET \(column) = ? WHERE id = 'k7'", arguments: [value]) }
                try await SyncClient(store: store, server: server.url, token: token).synchronize()
            }
        }

        let pages = try await Self.snapshotPages(of: server.url, limit: 50, token: token)
        let rows = pages.flatMap(\.rows)
        #expect(rows.count == 80 && Set(rows.map { "\($0.table) \($0.key)" }).count == 80, "every item and tag once")
        #expect(pages.dropLast().allSatisfy { !$0.rows.isEmpty && $0.rows.count < 50 }, "pages cut by the change limit")
        let alone = try #require(pages.first { $0.rows.contains { $0.key == .text("k7") } })
        #expect(alone.rows.count == 1)
        #expect(alone.rows[0].cells.first { $0.column == "title" }?.value == .text("edit 5"))
        #expect(alone.rows[0].cells.first { $0.column == "n" }?.value == .integer(5))

        var joining = SyncClient(store: c, server: server.url, token: token)
        joining.batchSize = 50
        try await joining.synchronize()
        for store in [a, b] { try await SyncClient(store: store, server: server.url, token: token).synchronize() }
        try await Self.expectConverged([a, b, c], database: fixture.database)
    }

    @Test(
        "A row's winners picked by PostgreSQL, past the change limit, are the ones the server's writer picks: ties, deletes, equivalent texts"
    )
    func boundedPagesMatchUnbounded() async throws {
        // A fresh seed each run unless STORE_TEST_SEED replays one.
        let seed = ProcessInfo.processInfo.environment["STORE_TEST_SEED"].flatMap(UInt64.init) ?? .random(in: .min ... .max)
        var random = SplitMix64(seed: seed)
        let fixture = try ServerFixture()
        // One change a page: every row with two changes or more comes as its winners, picked by PostgreSQL.
        let (unbounded, bounded) = (
            try await fixture.startServer(), try await fixture.startServer(options: ["--snapshot-page-changes", "1"])
        )
        let token = try fixture.token(for: "alice")
        // Few clocks, so that ties on the clock and on (clock, device) are frequent; devices and
        // keys that are canonically equivalent texts of different bytes.
        let now = Int64(Date().timeIntervalSince1970 * 1000) << 16
        let devices = ["d0", "d1", "e\u{301}", "\u{E9}"]
        let keys: [SyncWireValue] = [.text("\u{E9}"), .text("e\u{301}"), .blob(Data([1]))] + (0..<30).map { .text("k\($0)") }
        var sequences: [String: Int64] = [:]
        var changes: [SyncWireChange] = []
        for key in keys {
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let device = devices.randomElement(using: &random) ?? ""
                sequences[device, default: 0] += 1
                let operation: SyncWireChange.Operation =
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: .set(column: "title", value: .text("t\(changes.count)"))
                    case 1: .set(column: "n", value: .integer(Int64(changes.count)))
                    case 2: .set(column: "note", value: .blob(Data([UInt8(changes.count % 256)])))
                    default: .delete
                    }
                changes.append(
                    SyncWireChange(
                        device: device, sequence: sequences[device, default: 0], table: "items", key: key, operation: operation,
                        hlc: now + Int64.random(in: 0...2, using: &random)))
            }
        }
        let pushed = try await HTTP.send(
            "POST", unbounded.url.appendingPathComponent(SyncWireFormat.pushPath), token: token, body: ServerFixture.push(changes))
        #expect(pushed.status == 200, "\(pushed.text)")

        let pagesRead = (
            unbounded: try await Self.snapshotPages(of: unbounded.url, limit: 7, token: token),
            bounded: try await Self.snapshotPages(of: bounded.url, limit: 7, token: token)
        )
        #expect(pagesRead.bounded.count > pagesRead.unbounded.count, "seed \(seed)")
        let rows = (unbounded: try Self.spelled(pagesRead.unbounded), bounded: try Self.spelled(pagesRead.bounded))
        #expect(rows.unbounded.count == keys.count, "seed \(seed)")
        // By bytes: String's == equates canonically equivalent ids.
        #expect(rows.bounded.map { Array($0.utf8) } == rows.unbounded.map { Array($0.utf8) }, "seed \(seed)")
    }

    /// The pages' rows, each spelled with its stamps' devices by id instead of by index: equal
    /// bytes, equal rows.
    static func spelled(_ pages: [SyncSnapshotPage]) throws -> [String] {
        let encoder = JSONEncoder()
        return try pages.flatMap { page in
            try page.rows.map { row in
                let stamp = { (stamp: SyncSnapshotStamp) in "\(stamp.hlc)@\(page.devices[stamp.device])" }
                let cells = try row.cells.map {
                    "\($0.column)=\(String(decoding: try encoder.encode($0.value), as: UTF8.self)) \(stamp($0.stamp))"
                }
                let key = String(decoding: try encoder.encode(row.key), as: UTF8.self)
                return "\(row.table) \(key) deleted \(row.deleted.map(stamp) ?? "-") " + cells.joined(separator: ", ")
            }
        }
    }

    @Test("A snapshot page with a value that is not the format is a clear error, and the device stores nothing of it")
    func malformedPage() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 2)
        let (a, b) = (clients.stores[0], clients.stores[1])
        try await a.write { db in try db.execute(sql: "INSERT INTO items(id, title, n) VALUES ('k1', 'one', 1), ('k2', 'two', 2)") }
        try await SyncClient(store: a, server: server.url, token: token).synchronize()
        // The server splices stored values into the page as they are: a number where the kind says text.
        try await ServerDatabase.execute(
            #"UPDATE sync_changes SET value = '{"text":1}' WHERE pk = '{"text":"k2"}' AND col = 'title'"#, in: fixture.database)
        do {
            try await SyncClient(store: b, server: server.url, token: token).synchronize()
            Issue.record("a malformed snapshot page was applied")
        } catch let error as SyncServerError {
            #expect(error.reason == .unexpectedResponse && error.message.contains("not the sync protocol's"), "\(error)")
        }
        let stored = try await b.read { db in
            try db.fetchValue(
                Int.self,
                sql: """
                    SELECT (SELECT count(*) FROM items) + (SELECT count(*) FROM store_sync_cells)
                        + (SELECT count(*) FROM store_sync_meta WHERE key LIKE 'snapshot %' OR key LIKE 'cursor %')
                    """)
        }
        #expect(stored == 0)
    }

    // MARK: Support

    /// A server, alice's token and three stores, the first two with ``writeHistory(_:_:server:token:)`` pushed.
    struct History {
        let fixture: ServerFixture
        let server: SyncServerProcess
        let token: String
        let clients: SyncedStores

        init() async throws {
            fixture = try ServerFixture()
            server = try await fixture.startServer()
            token = try fixture.token(for: "alice")
            clients = try SyncedStores(count: 3)
            try await SyncSnapshotTests.writeHistory(clients.stores[0], clients.stores[1], server: server.url, token: token)
        }
    }

    /// 60 items written on `a` (every third with a tag), then on `b`: 20 titles changed and
    /// items 20–29 deleted with their tags, and on `a`, before it hears of the delete, item 25
    /// changed again (later than the delete: it comes back). All pushed.
    static func writeHistory(_ a: Store, _ b: Store, server: URL, token: String) async throws {
        try await a.write { db in
            for index in 0..<60 {
                try db.execute(
                    sql: "INSERT INTO items(id, title, n, note) VALUES (?, ?, ?, ?)",
                    arguments: ["k\(index)", "t\(index)", Int64(index), Data([UInt8(index), 0])])
                if index % 3 == 0 {
                    try db.execute(
                        sql: "INSERT INTO tags(id, item, label) VALUES (?, ?, ?)", arguments: ["g\(index)", "k\(index)", "l\(index)"])
                }
            }
        }
        try await SyncClient(store: a, server: server, token: token).synchronize()
        try await SyncClient(store: b, server: server, token: token).synchronize()
        try await b.write { db in
            try db.execute(sql: "UPDATE items SET title = 'b ' || title WHERE CAST(substr(id, 2) AS INTEGER) < 20")
            try db.execute(sql: "DELETE FROM items WHERE CAST(substr(id, 2) AS INTEGER) BETWEEN 20 AND 29")
        }
        try await SyncClient(store: b, server: server, token: token).synchronize()
        try await Task.sleep(for: .milliseconds(2))
        try await a.write { db in try db.execute(sql: "UPDATE items SET n = -25 WHERE id = 'k25'") }
        try await SyncClient(store: a, server: server, token: token).synchronize()
    }

    /// An insert, an update of a random column or a delete on `store`.
    static func randomWrite(on store: Store, step: Int, using random: inout SplitMix64) async throws {
        let key = "k\(Int.random(in: 0..<60, using: &random))"
        let (sql, arguments): (String, [DatabaseValue]) =
            switch Int.random(in: 0..<4, using: &random) {
            case 0: ("INSERT INTO items(id, title) VALUES (?, ?)", [.text("w\(step)"), .text("new \(step)")])
            case 1: ("UPDATE items SET title = ? WHERE id = ?", [.text("u\(step)"), .text(key)])
            case 2: ("UPDATE items SET n = ? WHERE id = ?", [.integer(Int64(step)), .text(key)])
            default: ("DELETE FROM items WHERE id = ?", [.text(key)])
            }
        try await store.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    /// Every page of a snapshot of `server`, read by HTTP from the first to the one without `next`.
    static func snapshotPages(of server: URL, limit: Int, token: String) async throws -> [SyncSnapshotPage] {
        var pages: [SyncSnapshotPage] = []
        var next: (cursor: Int64, position: SyncSnapshotPosition)?
        repeat {
            let page = try await HTTP.send(
                "GET", ServerFixture.snapshotURL(server, limit: limit, upTo: next?.cursor, after: next?.position), token: token
            ).decode(SyncSnapshotPage.self)
            pages.append(page)
            next = page.next.map { (page.cursor, $0) }
        } while next != nil
        return pages
    }

    /// Every store holds the same items and tags, byte for byte, and they are what the merge
    /// rule makes of the changes the server holds.
    static func expectConverged(_ stores: [Store], database: String) async throws {
        let model = try SyncMergeModel(changes: try await ServerDatabase.wireChanges(in: database)).expectedStore()
        for table in ["items", "tags"] {
            let expected = try SyncedStores.dump(model, table: table)
            #expect(!expected.isEmpty)
            for (index, store) in stores.enumerated() {
                #expect(try SyncedStores.dump(store, table: table) == expected, "store \(index): \(table) differ")
            }
        }
    }
}
