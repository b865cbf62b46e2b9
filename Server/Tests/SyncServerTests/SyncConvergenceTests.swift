import Foundation
import Logging
import PostgresNIO
import SQLiteStore
import SQLiteStoreSyncProtocol
import StoreSyncServer
import SyncServerHarness
import Testing

/// Two accounts, each with three client stores and one more joining later through a snapshot,
/// two copies of a client's file, and two server processes on one PostgreSQL behind one URL
/// (``LoopbackBalancer``, a deployment's load balancer: a snapshot cut by a kill resumes on the
/// other process, and nothing but the resumption can complete it), seeded random
/// writes (inserts, updates of random columns, deletes that cascade, statements that fail),
/// notes made their own parent or each other's (parent loops, across devices too) and deleted,
/// random syncs, answers lost after the server committed, connections cut at any byte of a
/// request or an answer (inside its status line, its headers, its body, after it) or stalled
/// (``LoopbackBalancer/fault(connection:_:)``), through the library's own transport, servers killed mid-sync and
/// restarted, client processes (``SyncTestClient``) that write to a store's file and are killed
/// at a random moment (in a write, between a commit and its push, in a push), and races of new
/// clients of either account reading their snapshots at once (``SnapshotRace``). The accounts'
/// clients spell their keys alike ("k1", "k2", …), so that a row of one account in a client of
/// the other would stand in for one of its own. Maintenance compacts the log at fixed steps and
/// once more before quiescence (every superseded change, whatever its age), with clients behind,
/// at and after each compaction, some in the middle of a snapshot.
///
/// After quiescence, for each account: its clients hold the same rows, equal to what an
/// independent model of the merge rule (``SyncMergeModel``) makes of the account's changes on
/// the server, and no cell or delete of another account's device; every outbox is empty, and the
/// server holds each change every client committed exactly once (or held it until a compaction
/// removed it as superseded, and never stored it again). A sync fails only for a server
/// killed or down: any other refusal (a snapshot page at another cursor, say) fails the test,
/// where a client would have quietly asked again.
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
        let run = try await ConvergenceRun(seed: seed, steps: Self.steps)
        for step in 0..<Self.steps { try await run.step(step) }
        try await run.quiesce()
        try await run.check()
    }
}

/// One seeded run of ``SyncConvergenceTests``: the servers, the accounts, their clients, and
/// what the run did, for its summary.
private final class ConvergenceRun {
    /// An account: its clients write keys spelled as the other account's do.
    struct Account {
        let name: String
        let token: String
        /// The keys of the items its clients inserted.
        var keys: [String] = []
        /// How many inserts its clients made, which numbers their keys.
        var inserts = 0
        /// The keys of the notes its clients inserted.
        var noteKeys: [String] = []
    }

    let seed: UInt64
    let steps: Int
    private var random: SplitMix64
    private let fixture: ServerFixture
    private var servers: [SyncServerProcess?]
    private let ports: [Int]
    /// The one URL every client syncs with, in front of both servers: each operation routes it
    /// to the server it picked. A client keeps its cursor and snapshot progress per URL, so with a
    /// URL per server each client would read a whole snapshot from each, and the second would
    /// repair what a resumed first one skipped.
    private let balancer: LoopbackBalancer
    /// The transports of the current step's clients, each with connections of its own, shut
    /// down when the step ends: each operation's connections are opened where the balancer
    /// routes during it, never kept from an earlier operation to another process.
    private var transports: [any SyncTransport] = []
    /// A server that computes no snapshot page ahead: what the races' pages are compared with.
    private let reference: SyncServerProcess
    private var accounts: [Account]
    private let clients: SyncedStores
    /// Each client's account, by its index in `clients`.
    private var accountOf: [Int]
    /// Each client's device id when it was made (a copy's: its original's).
    private var firstDevices: [String]
    /// The steps at which one more client of each account joins, through a snapshot of what the others wrote until then.
    private let joinSteps: [Int]
    /// The steps at which a store is copied (a restored backup, a file copied to another
    /// machine): the copy and its original write under one device id until one of them is
    /// refused and takes a new one. The first copy only reads (and syncs): only its pulls can find it out.
    private let copySteps: [Int]
    /// The steps at which new clients race through their snapshots (``race(step:)``).
    private let raceSteps: [Int]
    private var readOnlyCopy: Int?
    private var lostAnswers = 0
    private var kills = 0
    private var clientKills = 0
    private var killedBeforePush = 0
    private var failedStatements = 0
    private var interruptedSnapshots = 0
    private var racePages = 0
    private var crossAccountPages = 0
    /// The changes compaction removed, as `ServerDatabase.changes` lists them.
    private var compactedAway: [(account: String, device: String, sequence: Int64)] = []
    private var compactions = 0

    /// A run of `steps` steps that `seed` fixes: two servers, a reference server, two accounts of three clients.
    init(seed: UInt64, steps: Int) async throws {
        var random = SplitMix64(seed: seed)
        let fixture = try ServerFixture()
        (self.seed, self.steps, self.fixture) = (seed, steps, fixture)
        let servers = [try await fixture.startServer(), try await fixture.startServer()]
        self.servers = servers
        ports = servers.map(\.port)
        balancer = try await LoopbackBalancer(routingTo: servers[0].port)
        reference = try await fixture.startServer(options: ["--snapshot-lookahead-mb", "0"])
        accounts = try ["alice", "bob"].map { Account(name: $0, token: try fixture.token(for: $0)) }
        let clients = try SyncedStores(count: 6)
        self.clients = clients
        accountOf = [0, 0, 0, 1, 1, 1]
        firstDevices = try clients.stores.map { try $0.sync.deviceID() }
        joinSteps = [
            steps / 4 + Int.random(in: 0..<max(steps / 4, 1), using: &random),
            steps / 2 + Int.random(in: 0..<max(steps / 4, 1), using: &random),
        ]
        copySteps = (0..<2).map { _ in steps / 3 + Int.random(in: 0..<max(steps / 3, 1), using: &random) }
        raceSteps = (0..<2).map { _ in steps / 5 + Int.random(in: 0..<max(steps * 4 / 5, 1), using: &random) }
        self.random = random
    }

    /// Server `server`'s URL, the same across its restarts: for the test's own requests, not the clients'.
    private func url(_ server: Int) -> URL { URL(string: "http://127.0.0.1:\(ports[server])")! }

    /// The balancer's URL, routed to `server` from now on: what clients sync with.
    private func balancerURL(routedTo server: Int) -> URL {
        balancer.route(to: ports[server])
        return balancer.url
    }

    /// The token of `client`'s account.
    private func token(of client: Int) -> String { accounts[accountOf[client]].token }

    /// A client of `client`'s store talking to `server` through the balancer, whose pushes, pulls and snapshot pages
    /// hold `batchSize` changes or rows (3, 50 or 1,000 when nil), so that a late client's snapshot takes several pages.
    private func syncClient(_ client: Int, _ server: Int, batchSize: Int? = nil) -> SyncClient {
        let server = balancerURL(routedTo: server)
        let transport = OwnTransport.make()
        transports.append(transport)
        var syncer = SyncClient(store: clients.stores[client], server: server, token: token(of: client), transport: transport)
        syncer.batchSize = batchSize ?? [3, 50, 1_000][Int.random(in: 0..<3, using: &random)]
        return syncer
    }

    /// Adds a new store of account `account`; returns its index.
    private func addClient(of account: Int) throws -> Int {
        let joined = try clients.add()
        accountOf.append(account)
        firstDevices.append(try clients.stores[joined].sync.deviceID())
        return joined
    }

    /// Step `step`: the joins, copies and races due, then one random operation of a random client.
    func step(_ step: Int) async throws {
        if step > 0 && step % max(steps / 5, 1) == 0 { try await compact() }
        do {
            try await operate(step)
        } catch {
            await finishTransports()
            throw error
        }
        await finishTransports()
    }

    private func operate(_ step: Int) async throws {
        if let join = joinSteps.firstIndex(of: step) { try await joinCuttingSnapshot(of: join % accounts.count) }
        if copySteps.contains(step) { try await copyClient() }
        for _ in raceSteps.filter({ $0 == step }) { try await race(step: step) }
        let client = Int.random(in: 0..<clients.stores.count, using: &random)
        let server = Int.random(in: 0..<2, using: &random)
        var operation = Int.random(in: 0..<100, using: &random)
        if client == readOnlyCopy && (0..<68 ~= operation || 85..<88 ~= operation) { operation = 68 }  // a sync instead of a write
        let hasKeys = !accounts[accountOf[client]].keys.isEmpty
        switch operation {
        case 0..<22: try await insertItems(client, step: step)
        case 22..<30: try await writeNote(client, step: step)
        case 30..<40 where hasKeys: try await insertTag(client, step: step)
        case 40..<60 where hasKeys: try await updateItem(client, step: step)
        case 60..<68 where hasKeys: try await deleteItem(client)
        case 68..<76: await sync(client, with: server, step: step)
        case 76..<85: await sync(client, with: server, step: step, droppingAConnection: true)
        case 85..<88: try await killClientProcess(client, step: step, server: server)
        case 88..<93 where servers[server] != nil: try await pushLosingAnswer(client, to: server)
        case 93..<97 where servers[server] != nil: try await killServer(server, duringSyncOf: client)
        default: try await restartServers()
        }
    }

    /// Shuts down the transports of the clients made since the last call.
    private func finishTransports() async {
        for transport in transports { await OwnTransport.shutDown(transport) }
        transports = []
    }

    /// Copies a random client's store: the copy belongs to its original's account.
    private func copyClient() async throws {
        let original = Int.random(in: 0..<clients.stores.count, using: &random)
        let copy = try await clients.addCopy(of: original)
        accountOf.append(accountOf[original])
        firstDevices.append(firstDevices[original])
        if readOnlyCopy == nil { readOnlyCopy = copy }
    }

    /// Inserts an item, keyed by the account's count of inserts, or sometimes two whose keys and
    /// titles are canonically equivalent ("é" and "e" + U+0301): one String, two rows in SQLite and on the server.
    private func insertItems(_ client: Int, step: Int) async throws {
        let account = accountOf[client]
        let number = accounts[account].inserts
        accounts[account].inserts += 1
        let newKeys = Int.random(in: 0..<4, using: &random) == 0 ? ["\u{E9}\(number)", "e\u{301}\(number)"] : ["k\(number)"]
        accounts[account].keys += newKeys
        let title = "t\(Int.random(in: 0..<50, using: &random))"
        let n = Int64.random(in: -5...5, using: &random)
        try await clients.stores[client].write { db in
            for (index, key) in newKeys.enumerated() {
                try db.execute(
                    sql: "INSERT INTO items(id, title, n, note) VALUES (?, ?, ?, ?)",
                    arguments: [key, title + ["\u{E9}", "e\u{301}"][index], n, Data([UInt8(step % 256), 0])])
            }
        }
    }

    /// Tags one of the account's items: the item may be gone here or never arrived, and then
    /// SQLite refuses and the write rolls back.
    private func insertTag(_ client: Int, step: Int) async throws {
        let parent = accounts[accountOf[client]].keys.randomElement(using: &random)!
        do {
            try await clients.stores[client].write { db in
                try db.execute(sql: "INSERT INTO tags(id, item, label) VALUES (?, ?, ?)", arguments: ["g\(step)", parent, "l\(step % 7)"])
            }
        } catch is StoreError {
            failedStatements += 1
        }
    }

    /// Sets a random column of one of the account's items.
    private func updateItem(_ client: Int, step: Int) async throws {
        let key = accounts[accountOf[client]].keys.randomElement(using: &random)!
        let (column, value): (String, DatabaseValue) =
            switch Int.random(in: 0..<3, using: &random) {
            case 0: ("title", .text("u\(step)"))
            case 1: ("n", Bool.random(using: &random) ? .null : .integer(Int64(step)))
            default: ("note", .blob(Data([UInt8(step % 256)])))
            }
        try await clients.stores[client].write { db in
            try db.execute(sql: "UPDATE items SET \(column) = ? WHERE id = ?", arguments: [value, key])
        }
    }

    /// Writes one of the account's notes, whose parent is a note (`ON DELETE CASCADE`): a new
    /// note, or a note's parent set to itself, to another of the account's notes (loops form,
    /// here and across devices) or to none, or a note deleted with the notes that follow it. A
    /// parent this client does not have is refused by SQLite, and the write rolls back.
    private func writeNote(_ client: Int, step: Int) async throws {
        let account = accountOf[client]
        let keys = accounts[account].noteKeys
        let pick = { (random: inout SplitMix64) -> DatabaseValue in
            keys.isEmpty || Int.random(in: 0..<4, using: &random) == 0 ? .null : .text(keys.randomElement(using: &random) ?? "")
        }
        let (sql, arguments): (String, [DatabaseValue])
        switch (keys.randomElement(using: &random), Int.random(in: 0..<6, using: &random)) {
        case (let key?, 0..<3):
            let parent = Bool.random(using: &random) ? DatabaseValue.text(key) : pick(&random)
            (sql, arguments) = ("UPDATE notes SET parent = ? WHERE id = ?", [parent, .text(key)])
        case (let key?, 3):
            (sql, arguments) = ("DELETE FROM notes WHERE id = ?", [.text(key)])
        default:
            let key = "n\(accounts[account].noteKeys.count)"
            accounts[account].noteKeys.append(key)
            let parent = Bool.random(using: &random) ? DatabaseValue.text(key) : pick(&random)
            (sql, arguments) = ("INSERT INTO notes(id, parent, body) VALUES (?, ?, ?)", [.text(key), parent, .text("b\(step)")])
        }
        do {
            try await clients.stores[client].write { db in try db.execute(sql: sql, arguments: arguments) }
        } catch is StoreError {
            failedStatements += 1
        }
    }

    /// Deletes one of the account's items, and its tags with it.
    private func deleteItem(_ client: Int) async throws {
        let key = accounts[accountOf[client]].keys.randomElement(using: &random)!
        try await clients.stores[client].write { db in try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [key]) }
    }

    /// Syncs `client` with `server`, sometimes faulting one of its connections, the server
    /// running on: cut at a random byte of its request or of the server's answer (a push the
    /// server stored, a pull, a snapshot page; mostly within the first 400 bytes, where the
    /// status line and the headers are), or its answer held back, sometimes past the client's
    /// one-second timeout. A server killed or down, a cut connection or a timeout fails the
    /// sync; any other failure fails the test: a client refuses an answer that is not the
    /// protocol's (a snapshot page at another cursor than its snapshot's, or one cut short, say)
    /// and its next sync asks again, so that the run would converge all the same and never show it.
    /// A cut that ended the process (FoundationNetworking's on Linux did) ends the whole test.
    private func sync(_ client: Int, with server: Int, step: Int, droppingAConnection: Bool = false) async {
        var syncer = syncClient(client, server)
        if droppingAConnection {
            let fault = LoopbackBalancer.Fault.random(using: &random, answerBytes: 20_000)
            balancer.fault(connection: Int.random(in: 0..<3, using: &random), fault)
            syncer.requestTimeout = .seconds(1)
        }
        defer { balancer.cancelFault() }
        do {
            try await syncer.synchronize()
        } catch let error as SyncServerError where error.isTransient {
            // The server is down, or the connection dropped; the next sync goes on.
        } catch {
            Issue.record("seed \(seed), step \(step): client \(client)'s sync with server \(server) failed: \(error)")
        }
    }

    /// Syncs `client` with `server` where nothing may fail (no server is down or killed, no
    /// connection dropped); a failure names the client, the server and `during`.
    private func syncWithoutFaults(_ client: Int, _ server: Int, batchSize: Int, during: String) async throws {
        do {
            try await syncClient(client, server, batchSize: batchSize).synchronize()
        } catch {
            Issue.record("seed \(seed), \(during): client \(client)'s sync with server \(server) failed: \(error)")
            throw error
        }
    }

    /// A ``SyncTestClient`` process writes to `client`'s file and syncs, and is killed after a
    /// random number of its commits.
    private func killClientProcess(_ client: Int, step: Int, server: Int) async throws {
        let operations = clientProcessOperations(step: step, keys: &accounts[accountOf[client]].keys)
        let commits = Int.random(in: 0...operations.count, using: &random)
        let delay = Duration.milliseconds(Int.random(in: 0..<30, using: &random))
        let madeBefore = try await SyncedStores.changesMade(by: clients.stores[client])
        let arguments = [clients.path(client), balancerURL(routedTo: server).absoluteString, token(of: client)] + operations
        try await clients.reopen(client) {
            let process = try ChildProcess(ChildProcess.binary("SyncTestClient", override: "SYNC_TEST_CLIENT_BINARY"), arguments)
            if commits > 0 { _ = try await process.waitForLine { $0 == "done \(commits)" ? true : nil } }
            try await Task.sleep(for: delay)
            process.kill()
        }
        clientKills += 1
        let pending = try clients.stores[client].sync.pendingChanges(limit: 100_000).changes
        if pending.contains(where: { $0.id.sequence > madeBefore }) { killedBeforePush += 1 }
    }

    /// The server commits a push of `client`'s outbox; its answer is lost, so the outbox keeps the changes.
    private func pushLosingAnswer(_ client: Int, to server: Int) async throws {
        let batch = try clients.stores[client].sync.pendingChanges()
        guard !batch.changes.isEmpty else { return }
        _ = try await HTTP.send(
            "POST", url(server).appendingPathComponent(SyncWireFormat.pushPath), token: token(of: client),
            body: try JSONEncoder().encode(batch.pushRequest))
        lostAnswers += 1
    }

    /// Kills `server` a few milliseconds into a sync of `client`, which fails or completes as it may.
    private func killServer(_ server: Int, duringSyncOf client: Int) async throws {
        let syncer = syncClient(client, server)
        let syncing = Task { try await syncer.synchronize() }
        try await Task.sleep(for: .milliseconds(Int.random(in: 0..<8, using: &random)))
        try await kill(server, cutting: syncing, of: client)
    }

    /// A new client of `account` joins through a snapshot in pages of 3 rows, and the server it
    /// reads is killed once it has applied a page: its later syncs resume the snapshot where it
    /// was cut (a kill at a random moment mostly lands before a new client's first page or after
    /// its last).
    private func joinCuttingSnapshot(of account: Int) async throws {
        let joined = try addClient(of: account)
        try await restartServers()
        let server = Int.random(in: 0..<2, using: &random)
        let syncer = syncClient(joined, server, batchSize: 3)
        let syncing = Task { try await syncer.synchronize() }
        let deadline = ContinuousClock.now + .seconds(10)
        while try await !SyncedStores.isReadingSnapshot(clients.stores[joined]), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        try await kill(server, cutting: syncing, of: joined)
    }

    /// Kills `server` while `syncing`, a sync of `client`, may be under way, and waits for the
    /// sync to fail or complete; counts the snapshot it cut, if it did.
    private func kill(_ server: Int, cutting syncing: Task<SyncClient.Progress, any Error>, of client: Int) async throws {
        servers[server]?.kill()
        servers[server] = nil
        kills += 1
        _ = try? await syncing.value
        if try await SyncedStores.isReadingSnapshot(clients.stores[client]) { interruptedSnapshots += 1 }
    }

    /// Starts again, on its port, each server that was killed.
    private func restartServers() async throws {
        for index in servers.indices where servers[index] == nil {
            servers[index] = try await fixture.startServer(port: ports[index])
        }
    }

    /// Two or three new clients of either account, with pages of 3 or 50 rows, read their
    /// snapshots at once from one server, beside a ``SnapshotRace`` of readers of the same
    /// accounts and page sizes that start with them, and clients of both accounts write and push
    /// between the rounds of pages, so that the server keeps pages ahead for several keys at once
    /// and the readers start at several cursors. No server is killed meanwhile: every sync and
    /// page must succeed.
    private func race(step: Int) async throws {
        try await restartServers()
        let server = Int.random(in: 0..<2, using: &random)
        let (readers, joiners) = try addRacingClients(step: step)
        var race = SnapshotRace(server: url(server), reference: reference.url, tokens: accounts.map(\.token), readers: readers)
        var syncing: [(reader: String, task: Task<SyncClient.Progress, any Error>)] = []
        var round = 0
        while !race.isComplete {
            for (index, reader) in readers.enumerated() where reader.startRound == round {
                let syncer = syncClient(joiners[index], server, batchSize: reader.limit)
                syncing.append((reader.name, Task { try await syncer.synchronize() }))
            }
            try await raceRound(round, of: &race, on: server, avoiding: joiners, step: step)
            round += 1
        }
        for (reader, task) in syncing {
            do {
                _ = try await task.value
            } catch {
                Issue.record("\(reader): the new client's sync failed: \(error)")
            }
        }
        racePages += race.comparedPages
        crossAccountPages += race.crossAccountPages
        try await expectNoForeignDevices(in: joiners, label: "seed \(seed), after the race at step \(step)")
    }

    /// Adds two or three clients of random accounts, and for each a reader of its account's
    /// snapshot in pages of 3 or 50 rows, the first one starting at once, the others in one of the next rounds.
    private func addRacingClients(step: Int) throws -> (readers: [SnapshotRace.Reader], joiners: [Int]) {
        var readers: [SnapshotRace.Reader] = []
        var joiners: [Int] = []
        for index in 0..<Int.random(in: 2...3, using: &random) {
            let account = Int.random(in: 0..<accounts.count, using: &random)
            joiners.append(try addClient(of: account))
            readers.append(
                .init(
                    name: "seed \(seed), step \(step), reader \(index) of \(accounts[account].name)", account: account,
                    limit: [3, 50][Int.random(in: 0..<2, using: &random)],
                    startRound: index == 0 ? 0 : Int.random(in: 0..<4, using: &random)))
        }
        return (readers, joiners)
    }

    /// One round of `race` on `server`: sometimes a probe of a reader's next page, then a page
    /// for each reader under way but one in four, in a random order, and sometimes a write pushed.
    private func raceRound(_ round: Int, of race: inout SnapshotRace, on server: Int, avoiding joiners: [Int], step: Int) async throws {
        if Int.random(in: 0..<3, using: &random) == 0, let target = race.midSnapshot.randomElement(using: &random) {
            try await race.probe(target)
        }
        for reader in race.reading(in: round).shuffled(using: &random) where Int.random(in: 0..<4, using: &random) > 0 {
            try await race.readPage(reader)
        }
        if Int.random(in: 0..<4, using: &random) == 0 { try await writeAndPush(step: step, avoiding: joiners, to: server) }
    }

    /// A client of a random account, none of `joiners` nor the copy that only reads, inserts an
    /// item or updates one, and syncs with `server`: the account's latest sequence moves on.
    private func writeAndPush(step: Int, avoiding joiners: [Int], to server: Int) async throws {
        let account = Int.random(in: 0..<accounts.count, using: &random)
        let writers = clients.stores.indices.filter { accountOf[$0] == account && !joiners.contains($0) && $0 != readOnlyCopy }
        let client = writers.randomElement(using: &random)!
        if accounts[account].keys.isEmpty || Bool.random(using: &random) {
            try await insertItems(client, step: step)
        } else {
            try await updateItem(client, step: step)
        }
        // Large batches: the writer may be hundreds of changes behind, which pulls of 3 would make a race of their own.
        try await syncWithoutFaults(client, server, batchSize: 1_000, during: "the race at step \(step)")
    }

    /// Runs maintenance as a server does, with no retention window: every superseded change goes.
    private func compact() async throws {
        func key(_ change: (account: String, device: String, sequence: Int64)) -> String {
            "\(change.account)|\(change.device)|\(change.sequence)"
        }
        let before = try await ServerDatabase.changes(in: fixture.database)
        _ = try await SyncServer.maintain(
            SyncMaintenancePolicy(retention: .zero, forgetDevicesAfter: nil),
            postgres: try PostgresClient.Configuration(url: fixture.database), logger: Logger(label: "test"))
        let kept = Set(try await ServerDatabase.changes(in: fixture.database).map(key))
        compactedAway += before.filter { !kept.contains(key($0)) }
        compactions += 1
    }

    /// Compacts, restarts the servers killed, and syncs every client twice, once through each server.
    func quiesce() async throws {
        try await compact()
        try await restartServers()
        for round in 0..<2 {
            for client in clients.stores.indices {
                try await syncWithoutFaults(client, (client + round) % 2, batchSize: 5_000, during: "quiescence")
            }
        }
        await finishTransports()
        try await balancer.close()
    }

    /// The number of notes of a client that are their own parent or in a parent loop (of up to 50).
    private static let notesInLoops = """
        WITH RECURSIVE up(start, id, steps) AS (
            SELECT id, parent, 1 FROM notes WHERE parent IS NOT NULL
            UNION SELECT up.start, n.parent, up.steps + 1 FROM up JOIN notes n ON n.id = up.id
            WHERE n.parent IS NOT NULL AND up.steps < 50)
        SELECT count(DISTINCT start) FROM up WHERE id = start
        """

    /// Checks each account's clients (``checkAccount(_:stored:)``), then what the run must have done.
    func check() async throws {
        let stored = try await ServerDatabase.changes(in: fixture.database)
        let storedAgain = Set(stored.map { "\($0.account)|\($0.device)|\($0.sequence)" }).intersection(
            compactedAway.map { "\($0.account)|\($0.device)|\($0.sequence)" })
        #expect(storedAgain.isEmpty, "seed \(seed): changes stored again after compaction removed them: \(storedAgain.sorted())")
        #expect(compactedAway.count > 0, "seed \(seed): compaction removed nothing")
        var outcomes: [AccountOutcome] = []
        for account in accounts.indices { outcomes.append(try await checkAccount(account, stored: stored + compactedAway)) }
        try await expectNoForeignDevices(in: Array(clients.stores.indices), label: "seed \(seed)")
        var notesInLoops = 0
        for store in clients.stores {
            notesInLoops += try await store.read { db in try db.fetchValue(Int.self, sql: Self.notesInLoops) } ?? 0
        }
        #expect(notesInLoops > 0, "seed \(seed): no note kept is its own parent or in a parent loop")
        let hasEquivalentKeys = outcomes.contains { $0.hasEquivalentKeys }
        #expect(hasEquivalentKeys, "seed \(seed): no canonically equivalent keys")
        #expect(killedBeforePush > 0, "seed \(seed): no client process was killed between a commit and its push")
        let newDevices = outcomes.reduce(0) { $0 + $1.newDevices }
        #expect(newDevices > 0, "seed \(seed): no copied store was found out")
        if let readOnlyCopy {
            #expect(
                try clients.stores[readOnlyCopy].sync.deviceID() != firstDevices[readOnlyCopy], "seed \(seed): the copy that only reads")
        }
        #expect(crossAccountPages > 0, "seed \(seed): no page was asked for at another account's cursor")
        #expect(interruptedSnapshots > 0, "seed \(seed): no snapshot was cut by a server kill")
        #expect(balancer.cuts > 0, "seed \(seed): no connection was cut")
        let perAccount = accounts.indices.map { "\(accounts[$0].name): \(outcomes[$0].items) items, \(outcomes[$0].tags) tags" }
        let summary: [String] = [
            "seed \(seed): \(steps) steps, \(stored.count) changes stored",
            "\(compactedAway.count) removed by \(compactions) compactions", perAccount.joined(separator: ", "),
            "\(lostAnswers) lost answers, \(kills) server kills, \(balancer.cuts) of \(balancer.connections) connections cut",
            "\(clientKills) client processes killed (\(killedBeforePush) with changes committed and not pushed)",
            "\(failedStatements) refused statements, 2 clients joined at steps \(joinSteps)",
            "2 copied at steps \(copySteps), the first to read only (\(newDevices) took a new device id)",
            "\(interruptedSnapshots) snapshots cut by a server kill",
            "races at steps \(raceSteps.sorted()) (\(racePages) pages compared, \(crossAccountPages) at another account's cursor)",
        ]
        print(summary.joined(separator: ", "))
    }

    /// What ``checkAccount(_:stored:)`` found, for the summary.
    struct AccountOutcome {
        let items: Int
        let tags: Int
        /// Clients that took a new device id (a copy or its original, found out).
        let newDevices: Int
        let hasEquivalentKeys: Bool
    }

    /// Checks that the clients of `account` hold byte-identical tables and sync states, equal to
    /// what the merge rule makes of the account's changes on the server, that their outboxes are
    /// empty, and that the server holds each change they made exactly once (`stored`: every
    /// account's changes).
    private func checkAccount(
        _ account: Int, stored: [(account: String, device: String, sequence: Int64)]
    ) async throws -> AccountOutcome {
        let name = accounts[account].name
        let label = "seed \(seed), \(name)"
        let members = clients.stores.indices.filter { accountOf[$0] == account }
        let stores = members.map { clients.stores[$0] }
        // Compared by bytes: the generator makes canonically equivalent keys and titles.
        let items = try stores.map { SyncedStores.bytes(try SyncedStores.dump($0, table: "items")) }
        let tags = try stores.map { SyncedStores.bytes(try SyncedStores.dump($0, table: "tags")) }
        let notes = try stores.map { SyncedStores.bytes(try SyncedStores.dump($0, table: "notes")) }
        #expect(items.allSatisfy { $0 == items[0] }, "\(label): items differ")
        #expect(tags.allSatisfy { $0 == tags[0] }, "\(label): tags differ")
        #expect(notes.allSatisfy { $0 == notes[0] }, "\(label): notes differ")
        let states = try stores.map { SyncedStores.bytes(try SyncedStores.syncState($0)) }
        #expect(states.allSatisfy { $0 == states[0] }, "\(label): the sync states (cells and deletes with their stamps) differ")
        #expect(!items[0].isEmpty, "\(label): no items")
        let model = try SyncMergeModel(changes: try await ServerDatabase.wireChanges(in: fixture.database, account: name)).expectedStore()
        #expect(items[0] == SyncedStores.bytes(try SyncedStores.dump(model, table: "items")), "\(label): items are not the merge rule's")
        #expect(tags[0] == SyncedStores.bytes(try SyncedStores.dump(model, table: "tags")), "\(label): tags are not the merge rule's")
        #expect(notes[0] == SyncedStores.bytes(try SyncedStores.dump(model, table: "notes")), "\(label): notes are not the merge rule's")
        let newDevices = try await expectEachChangeStoredOnce(by: members, stored: stored.filter { $0.account == name }, label: label)
        return AccountOutcome(
            items: items[0].count, tags: tags[0].count, newDevices: newDevices,
            hasEquivalentKeys: items[0].contains { $0.starts(with: Array("'e\u{301}".utf8)) })
    }

    /// Checks that each of `members` pushed its outbox and that `stored` holds each change it
    /// made exactly once; returns how many took a new device id.
    private func expectEachChangeStoredOnce(
        by members: [Int], stored: [(account: String, device: String, sequence: Int64)], label: String
    ) async throws -> Int {
        var newDevices = 0
        for index in members {
            let store = clients.stores[index]
            #expect(try store.sync.pendingChanges().changes.isEmpty, "\(label): client \(index)'s outbox")
            let device = try store.sync.deviceID()
            let made = try await SyncedStores.changesMade(by: store)
            let sequences = stored.filter { $0.device == device }.map(\.sequence).sorted()
            if device == firstDevices[index] {
                #expect(sequences == Array(stride(from: 1, through: made, by: 1)), "\(label): device \(device)")
            } else {
                // A copy or its original, refused and given a new id: its changes from then on,
                // with those waiting then, which it sent again under the new id.
                newDevices += 1
                let first = sequences.first ?? made + 1
                #expect(sequences == Array(stride(from: first, through: made, by: 1)), "\(label): new device \(device)")
            }
        }
        return newDevices
    }

    /// Checks that each of `members` holds cells and deletes of its own account's devices only:
    /// a row of another account, however its key is spelled, comes with its device's stamps.
    private func expectNoForeignDevices(in members: [Int], label: String) async throws {
        let stored = try await ServerDatabase.changes(in: fixture.database) + compactedAway
        for index in members {
            let account = accounts[accountOf[index]].name
            let foreign = try SyncedStores.devices(in: clients.stores[index]).subtracting(
                stored.filter { $0.account == account }.map(\.device))
            let owners = Set(stored.filter { foreign.contains($0.device) }.map(\.account))
            #expect(foreign.isEmpty, "\(label): client \(index) of \(account) holds changes of devices \(foreign) of \(owners)")
        }
    }

    /// A few writes for a ``SyncTestClient`` process, and syncs among them: new items (their keys
    /// join `keys`), updates, deletes and tags of items anywhere in `keys`.
    private func clientProcessOperations(step: Int, keys: inout [String]) -> [String] {
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
