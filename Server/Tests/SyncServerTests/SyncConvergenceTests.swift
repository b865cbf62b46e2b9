import Foundation
import SQLiteStore
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

/// Three client stores, two more joining later through a snapshot, two copies of a client's
/// file, and two server processes on one PostgreSQL, seeded random writes
/// (inserts, updates of random columns, deletes that cascade, statements that fail), random
/// syncs, answers lost after the server committed, servers killed mid-sync and restarted, and
/// client processes (``SyncTestClient``) that write to a store's file and are killed at a random
/// moment: in a write, between a commit and its push, in a push. After quiescence every client
/// holds the same rows, equal to what an independent model of the merge rule
/// (``SyncMergeModel``) makes of the changes the server holds; every outbox is empty, and the
/// server holds each change every client committed exactly once.
///
/// `SYNC_CONVERGENCE_SEED` and `SYNC_CONVERGENCE_STEPS` reproduce or lengthen a run. Where a
/// kill lands in a request depends on timing, so a seed fixes the operations, not the outcome
/// of each kill; the invariants hold either way.
@Suite("Sync convergence through servers", .serialized, .timeLimit(.minutes(10)))
struct SyncConvergenceTests {
    static let seeds: [UInt64] = ProcessInfo.processInfo.environment["SYNC_CONVERGENCE_SEED"].flatMap(UInt64.init).map { [$0] } ?? [1, 2]
    static let steps = ProcessInfo.processInfo.environment["SYNC_CONVERGENCE_STEPS"].flatMap(Int.init) ?? 1_000

    @Test("Clients converge and the server holds every change exactly once", arguments: seeds)
    func converge(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let fixture = try ServerFixture()
        var servers: [SyncServerProcess?] = [
            try await fixture.startServer(), try await fixture.startServer(),
        ]
        let ports = servers.map { $0?.port ?? 0 }
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 3)
        // Two more clients join later, through a snapshot of what the others wrote until then.
        let joinSteps = [
            Self.steps / 4 + Int.random(in: 0..<(Self.steps / 4), using: &random),
            Self.steps / 2 + Int.random(in: 0..<(Self.steps / 4), using: &random),
        ]
        // Two stores are copied (a restored backup, a file copied to another machine): the copy
        // and its original write under one device id until one of them is refused and takes a new
        // one. The first copy only reads (and syncs): only its pulls can find it out.
        let copySteps = (0..<2).map { _ in Self.steps / 3 + Int.random(in: 0..<(Self.steps / 3), using: &random) }
        var firstDevices = try clients.stores.map { try $0.sync.deviceID() }
        var readOnlyCopy: Int?
        func url(_ server: Int) -> URL { URL(string: "http://127.0.0.1:\(ports[server])")! }
        var keys: [String] = []
        var lostAnswers = 0
        var kills = 0
        var clientKills = 0
        var killedBeforePush = 0
        var failedStatements = 0

        var interruptedSnapshots = 0
        for step in 0..<Self.steps {
            if joinSteps.contains(step) {
                let joined = try clients.add()
                firstDevices.append(try clients.stores[joined].sync.deviceID())
            }
            if copySteps.contains(step) {
                let original = Int.random(in: 0..<clients.stores.count, using: &random)
                let copy = try await clients.addCopy(of: original)
                firstDevices.append(firstDevices[original])
                if readOnlyCopy == nil { readOnlyCopy = copy }
            }
            let client = Int.random(in: 0..<clients.stores.count, using: &random)
            let store = clients.stores[client]
            let server = Int.random(in: 0..<2, using: &random)
            var operation = Int.random(in: 0..<100, using: &random)
            if client == readOnlyCopy && (0..<68 ~= operation || 85..<88 ~= operation) { operation = 68 }  // a sync instead of a write
            switch operation {
            case 0..<30:
                // Sometimes two rows whose keys and titles are canonically equivalent ("é" and
                // "e" + U+0301): one String, two rows in SQLite and on the server.
                let newKeys = Int.random(in: 0..<4, using: &random) == 0 ? ["\u{E9}\(step)", "e\u{301}\(step)"] : ["k\(step)"]
                keys += newKeys
                let title = "t\(Int.random(in: 0..<50, using: &random))"
                let n = Int64.random(in: -5...5, using: &random)
                try await store.write { db in
                    for (index, key) in newKeys.enumerated() {
                        try db.execute(
                            sql: "INSERT INTO items(id, title, n, note) VALUES (?, ?, ?, ?)",
                            arguments: [key, title + ["\u{E9}", "e\u{301}"][index], n, Data([UInt8(step % 256), 0])])
                    }
                }
            case 30..<40 where !keys.isEmpty:
                // The parent may be gone here or never arrived: SQLite refuses, the write rolls back.
                let parent = keys.randomElement(using: &random)!
                do {
                    try await store.write { db in
                        try db.execute(
                            sql: "INSERT INTO tags(id, item, label) VALUES (?, ?, ?)", arguments: ["g\(step)", parent, "l\(step % 7)"])
                    }
                } catch is StoreError {
                    failedStatements += 1
                }
            case 40..<60 where !keys.isEmpty:
                let key = keys.randomElement(using: &random)!
                let (column, value): (String, DatabaseValue) =
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: ("title", .text("u\(step)"))
                    case 1: ("n", Bool.random(using: &random) ? .null : .integer(Int64(step)))
                    default: ("note", .blob(Data([UInt8(step % 256)])))
                    }
                try await store.write { db in try db.execute(sql: "UPDATE items SET \(column) = ? WHERE id = ?", arguments: [value, key]) }
            case 60..<68 where !keys.isEmpty:
                let key = keys.randomElement(using: &random)!
                try await store.write { db in try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [key]) }
            case 68..<85:
                _ = try? await Self.client(store, url(server), token, using: &random).synchronize()
            case 85..<88:
                let operations = clientProcessOperations(step: step, keys: &keys, using: &random)
                let commits = Int.random(in: 0...operations.count, using: &random)
                let delay = Duration.milliseconds(Int.random(in: 0..<30, using: &random))
                let madeBefore = try await Self.changesMade(by: store)
                try await clients.reopen(client) {
                    let process = try ChildProcess(
                        ChildProcess.binary("SyncTestClient", override: "SYNC_TEST_CLIENT_BINARY"),
                        [clients.path(client), url(server).absoluteString, token] + operations)
                    if commits > 0 { _ = try await process.waitForLine { $0 == "done \(commits)" ? true : nil } }
                    try await Task.sleep(for: delay)
                    process.kill()
                }
                clientKills += 1
                let pending = try clients.stores[client].sync.pendingChanges(limit: 100_000).changes
                if pending.contains(where: { $0.id.sequence > madeBefore }) { killedBeforePush += 1 }
            case 88..<93 where servers[server] != nil:
                // The server commits the push; its answer is lost, so the outbox keeps the changes.
                let batch = try store.sync.pendingChanges()
                if !batch.changes.isEmpty {
                    _ = try await HTTP.send(
                        "POST", url(server).appendingPathComponent(SyncWireFormat.pushPath), token: token,
                        body: try JSONEncoder().encode(batch.pushRequest))
                    lostAnswers += 1
                }
            case 93..<97 where servers[server] != nil:
                let syncer = Self.client(store, url(server), token, using: &random)
                let syncing = Task { try await syncer.synchronize() }
                try await Task.sleep(for: .milliseconds(Int.random(in: 0..<8, using: &random)))
                servers[server]?.kill()
                servers[server] = nil
                kills += 1
                _ = try? await syncing.value
                if try await SyncedStores.isReadingSnapshot(store) { interruptedSnapshots += 1 }
            default:
                for index in servers.indices where servers[index] == nil {
                    servers[index] = try await fixture.startServer(port: ports[index])
                }
            }
        }

        for index in servers.indices where servers[index] == nil {
            servers[index] = try await fixture.startServer(port: ports[index])
        }
        for round in 0..<2 {
            for (index, store) in clients.stores.enumerated() {
                try await SyncClient(store: store, server: url((index + round) % 2), token: token).synchronize()
            }
        }

        // Compared by bytes: the generator makes canonically equivalent keys and titles.
        let items = try clients.stores.map { SyncedStores.bytes(try SyncedStores.dump($0, table: "items")) }
        let tags = try clients.stores.map { SyncedStores.bytes(try SyncedStores.dump($0, table: "tags")) }
        #expect(items.allSatisfy { $0 == items[0] }, "seed \(seed): items differ")
        #expect(tags.allSatisfy { $0 == tags[0] }, "seed \(seed): tags differ")
        let states = try clients.stores.map { SyncedStores.bytes(try SyncedStores.syncState($0)) }
        #expect(states.allSatisfy { $0 == states[0] }, "seed \(seed): the sync states (cells and deletes with their stamps) differ")
        #expect(!items[0].isEmpty)
        #expect(items[0].contains { $0.starts(with: Array("'e\u{301}".utf8)) }, "seed \(seed): no canonically equivalent keys")
        #expect(killedBeforePush > 0, "seed \(seed): no client process was killed between a commit and its push")
        let model = try SyncMergeModel(changes: try await ServerDatabase.wireChanges(in: fixture.database)).expectedStore()
        #expect(
            items[0] == SyncedStores.bytes(try SyncedStores.dump(model, table: "items")), "seed \(seed): items are not the merge rule's")
        #expect(tags[0] == SyncedStores.bytes(try SyncedStores.dump(model, table: "tags")), "seed \(seed): tags are not the merge rule's")
        let stored = try await ServerDatabase.changes(in: fixture.database)
        var newDevices = 0
        for (index, store) in clients.stores.enumerated() {
            #expect(try store.sync.pendingChanges().changes.isEmpty)
            let device = try store.sync.deviceID()
            let made = try await Self.changesMade(by: store)
            let sequences = stored.filter { $0.device == device }.map(\.sequence).sorted()
            if device == firstDevices[index] {
                #expect(sequences == Array(stride(from: 1, through: made, by: 1)), "seed \(seed): device \(device)")
            } else {
                // A copy or its original, refused and given a new id: its changes from then on,
                // with those waiting then, which it sent again under the new id.
                newDevices += 1
                let first = sequences.first ?? made + 1
                #expect(sequences == Array(stride(from: first, through: made, by: 1)), "seed \(seed): new device \(device)")
            }
        }
        #expect(newDevices > 0, "seed \(seed): no copied store was found out")
        if let readOnlyCopy {
            #expect(
                try clients.stores[readOnlyCopy].sync.deviceID() != firstDevices[readOnlyCopy], "seed \(seed): the copy that only reads")
        }
        print(
            "seed \(seed): \(Self.steps) steps, \(stored.count) changes stored, \(items[0].count) items, \(tags[0].count) tags, "
                + "\(lostAnswers) lost answers, \(kills) server kills, \(clientKills) client processes killed "
                + "(\(killedBeforePush) with changes committed and not pushed), "
                + "\(failedStatements) refused statements, 2 clients joined at steps \(joinSteps), "
                + "2 copied at steps \(copySteps), the first to read only (\(newDevices) took a new device id) "
                + "(\(interruptedSnapshots) snapshots cut by a server kill)")
    }

    /// A client of `store` whose pushes, pulls and snapshot pages hold 3, 50 or 1,000 changes
    /// or rows, so that a late client's snapshot takes several pages.
    private static func client(_ store: Store, _ server: URL, _ token: String, using random: inout SplitMix64) -> SyncClient {
        var client = SyncClient(store: store, server: server, token: token)
        client.batchSize = [3, 50, 1_000][Int.random(in: 0..<3, using: &random)]
        return client
    }

    /// The sequence of the last change the store's device recorded (0: none).
    private static func changesMade(by store: Store) async throws -> Int64 {
        try await store.read { db in
            try db.fetchValue(Int64.self, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'store_sync_outbox'") ?? 0
        }
    }

    /// A few writes for a ``SyncTestClient`` process, and syncs among them: new items (their keys
    /// join `keys`), updates, deletes and tags of items anywhere in `keys`.
    private func clientProcessOperations(step: Int, keys: inout [String], using random: inout SplitMix64) -> [String] {
        (0..<Int.random(in: 1...6, using: &random)).map { index in
            let known = keys.randomElement(using: &random) ?? "none"
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3:
                keys.append("p\(step)-\(index)")
                return "item:p\(step)-\(index):t\(index)"
            case 3..<6: return "n:\(known):\(step)"
            case 6: return "delete:\(known)"
            case 7: return "tag:q\(step)-\(index):\(known)"
            default: return "sync"
            }
        }
    }
}
