import Foundation
import Logging
import PostgresNIO
import SQLiteStore
import SQLiteStoreSyncProtocol
import StoreSyncServer
import SyncServerHarness
import Testing

/// Maintenance on a real PostgreSQL: compaction leaves one change per cell and every device
/// converges whatever its cursor, a retried push of a removed change is not stored again, and a
/// forgotten device is told so, reads the snapshot again and loses none of its own writes.
@Suite("Log maintenance", .serialized, .timeLimit(.minutes(3)))
struct LogMaintenanceTests {
    private static func maintain(_ fixture: ServerFixture, _ policy: SyncMaintenancePolicy) async throws -> SyncMaintenanceReport {
        try await SyncServer.maintain(
            policy, postgres: try PostgresClient.Configuration(url: fixture.database), logger: Logger(label: "test"))
    }

    /// How many stored changes each cell (a column of a row, or a row's deletes) has, at most,
    /// and how many cells there are.
    private static func changesPerCell(_ fixture: ServerFixture) async throws -> (most: Int, cells: Int, changes: Int) {
        let changes = try await ServerDatabase.wireChanges(in: fixture.database)
        var perCell: [String: Int] = [:]
        for change in changes {
            let column: String =
                switch change.operation {
                case .set(let column, _): column
                case .delete: "-"
                }
            perCell["\(change.table)|\(change.key)|\(column)", default: 0] += 1
        }
        return (perCell.values.max() ?? 0, perCell.count, changes.count)
    }

    @Test("Compaction leaves one change per cell; devices behind it, at it and after it, and a new one, all converge")
    func compactionKeepsConvergence() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        // 0 and 1 write; 2 syncs early then stays away (behind); 3 syncs just before the
        // compaction (at it); 4 joins after it.
        let clients = try SyncedStores(count: 4)
        let stores = clients.stores
        func sync(_ index: Int) async throws {
            try await SyncClient(store: clients.stores[index], server: server.url, token: token).synchronize()
        }
        var random = SplitMix64(seed: 58)
        try await stores[0].write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('r0', 'first')") }
        let firstPush = try JSONEncoder().encode(try stores[0].sync.pendingChanges().pushRequest)
        for round in 0..<12 {
            for writer in 0..<2 {
                var statements: [(sql: String, arguments: [any DatabaseValueConvertible & Sendable])] = []
                for _ in 0..<8 {
                    let row = "r\(Int.random(in: 0..<6, using: &random))"
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0:
                        statements.append(("DELETE FROM items WHERE id = ?", [row]))
                    case 1...3:
                        statements.append(
                            (
                                "INSERT INTO items(id, title) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET title = excluded.title",
                                [row, "t\(round)-\(writer)"]
                            ))
                    default:
                        statements.append(
                            (
                                "INSERT INTO items(id, n) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET n = excluded.n",
                                [row, Int64.random(in: 0..<1_000, using: &random)]
                            ))
                    }
                }
                try await stores[writer].write { [statements] db in
                    for statement in statements { try db.execute(sql: statement.sql, arguments: statement.arguments) }
                }
                try await sync(writer)
            }
            if round == 2 { try await sync(2) }
        }
        try await sync(0)
        try await sync(3)
        let before = try await Self.changesPerCell(fixture)
        #expect(before.most > 1, "the writers wrote cells again: there is something to compact")

        let report = try await Self.maintain(fixture, SyncMaintenancePolicy(retention: .zero, forgetDevicesAfter: nil))
        let after = try await Self.changesPerCell(fixture)
        #expect(report.accountsCompacted == 1 && report.changesRemoved == before.changes - after.changes)
        #expect(after.most == 1 && after.cells == before.cells, "one change per cell, every cell kept")

        // A push sent again after its changes were removed (its answer was lost) stores nothing.
        let replay = try await HTTP.send(
            "POST", server.url.appendingPathComponent(SyncWireFormat.pushPath), token: token, body: firstPush)
        #expect(replay.status == 200)
        #expect(try await Self.changesPerCell(fixture).changes == after.changes, "the replayed changes were not stored again")

        try await stores[1].write { db in
            try db.execute(sql: "UPDATE items SET title = 'after' WHERE rowid = (SELECT min(rowid) FROM items)")
        }
        for index in [1, 0, 2, 3] { try await sync(index) }
        let newcomer = try clients.add()
        try await sync(newcomer)
        try await sync(0)
        let expected = try SyncedStores.dump(clients.stores[0], table: "items")
        #expect(!expected.isEmpty)
        for index in clients.stores.indices {
            #expect(try SyncedStores.dump(clients.stores[index], table: "items") == expected, "store \(index)")
        }
    }

    @Test("A forgotten device is told so at its first pull, reads the snapshot again, and its unpushed writes reach the others")
    func aForgottenDeviceComesBack() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 2)
        let (a, b) = (clients.stores[0], clients.stores[1])
        func sync(_ store: Store) async throws -> SyncClient.Progress {
            try await SyncClient(store: store, server: server.url, token: token).synchronize()
        }
        try await a.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('x', 'one'), ('y', 'two')") }
        _ = try await sync(a)
        _ = try await sync(b)
        // b goes away with a write it has not pushed; a goes on.
        try await b.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('b', 'offline')") }
        try await a.write { db in
            try db.execute(sql: "UPDATE items SET title = 'ONE' WHERE id = 'x'")
            try db.execute(sql: "DELETE FROM items WHERE id = 'y'")
        }
        _ = try await sync(a)
        let report = try await Self.maintain(fixture, SyncMaintenancePolicy(retention: .zero, forgetDevicesAfter: .zero))
        #expect(report.devicesForgotten == 2)

        // Its pull from where it stopped is refused with the typed error, even after it pushed
        // (its push, whose answer is lost here, records it anew).
        let pushed = try await HTTP.send(
            "POST", server.url.appendingPathComponent(SyncWireFormat.pushPath), token: token,
            body: try JSONEncoder().encode(try b.sync.pendingChanges().pushRequest))
        #expect(pushed.status == 200)
        let cursor = try await b.read { db in
            try db.fetchValue(Int64.self, sql: "SELECT value FROM store_sync_meta WHERE key LIKE 'cursor %'")
        }
        let device = try b.sync.deviceID()
        let refused = try await HTTP.send(
            "GET", ServerFixture.pullURL(server.url, since: try #require(cursor), device: device), token: token)
        #expect(refused.status == 410)
        #expect(try refused.decode(SyncWireError.self).code == .deviceForgotten)

        let back = try await sync(b)
        #expect(back.pushed == 3, "its outbox was sent again (and stored once)")
        #expect(try SyncedStores.dump(b, table: "items") == ["'b'|'offline'|NULL|NULL", "'x'|'ONE'|NULL|NULL"])
        // a, forgotten too but up to date, pulls on without reading the snapshot again.
        #expect(try await sync(a).pulled == 3)
        #expect(try SyncedStores.dump(a, table: "items") == SyncedStores.dump(b, table: "items"))
        #expect(try await SyncedStores.hasCursor(b))
    }
}
