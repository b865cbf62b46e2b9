import Foundation
import NIOCore
import SQLiteStoreCore
import SQLiteStoreSync
import SQLiteStoreSyncProtocol
import SyncServerHarness

/// Sharing between two accounts, timed as people meet it (issue 57, "Measured"): two server
/// processes on one PostgreSQL on loopback, the owner's device and the member's device
/// connected to different ones (`SyncClient.run()`), so that every step crosses `LISTEN`/
/// `NOTIFY` between them.
///
/// The owner has one list of `items` items, a tag on one item in `tagEvery`; the member has a
/// list of ten items of its own. Both devices keep a live list of every item by title
/// (``ChangeSetProbe``), and so does the owner's second device, which syncs through the other
/// server process. Then, `rounds` times: the owner shares the list as writer, and the member's
/// device is timed until it holds all of its rows and until its list shows them; in the first
/// round only, the member and the owner's second device retitle items in turn, `writes`
/// times each, each timed until the change set in the owner's list; last, the owner revokes,
/// timed until the change set that removes the rows from the member's list.
@MainActor
struct SharingLatencies {
    let items: Int
    let tagEvery: Int
    let rounds: Int
    let writes: Int

    /// The member's own items, in its own list.
    private nonisolated static let memberItems = 10
    /// The items each writer retitles, in turn.
    private nonisolated static let pool = 50

    /// One share, timed from before the owner's `share(…)` call.
    struct ShareRound {
        /// The `share(…)` call's round trip.
        let call: Duration
        /// Until the member's store committed the first of the list's rows.
        let firstRows: Duration
        /// Until the member's store committed the last of them.
        let held: Duration
        /// Until the change set after which the member's live list shows every item.
        let shown: Duration
        /// The member's store's commits until it held the rows: each one's time from the call's
        /// start and the rows the store held after it.
        let commits: [(time: Duration, rows: Int)]
        /// The share's pages read alone afterwards, over HTTP, each decoded and none applied.
        let pagesAlone: Duration
        /// The CPU time used from the call until the rows were held; `clients` is this process.
        let cpu: CPUUse
    }

    /// One revocation, timed from before the owner's `revoke(…)` call.
    struct RevokeRound {
        let call: Duration
        /// Until the member's store committed the removal.
        let removed: Duration
        /// Until the change set that removes the rows from the member's live list.
        let shown: Duration
    }

    /// What one run measured.
    struct Result {
        let items: Int
        let tags: Int
        /// The owner's first push of the list, and its changes.
        let push: Duration
        let pushedChanges: Int
        let shares: [ShareRound]
        /// A write by the member → the change set in the owner's list.
        let memberWrites: Percentiles
        /// A write by the owner's second device → the change set in the owner's list.
        let ownWrites: Percentiles
        let revocations: [RevokeRound]

        /// The rows the list shares: itself, its items and their tags.
        var sharedRows: Int { 1 + items + tags }
    }

    func run() async throws -> Result {
        let stores = try BenchmarkStores(migration: SharedListsSchema.migration, tables: SharedListsSchema.tables)
        let owner = try stores.make("owner-1", syncs: true)
        let ownerSecond = try stores.make("owner-2", syncs: true)
        let member = try stores.make("member-1", syncs: true)
        let deployment = try await BenchmarkDeployment(
            serverCount: 2, migrations: stores.migrations, tables: SharedListsSchema.tables, options: SharedListsSchema.sharingOptions)
        let (ownerToken, memberToken) = (try deployment.token(for: "owner"), try deployment.token(for: "member"))
        let (itemIDs, tags) = try await fillOwnersList(owner)
        try await member.write { db in
            try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('own', 'The member''s own')")
            for index in 0..<Self.memberItems {
                try db.execute(
                    sql: "INSERT INTO items(id, list, title) VALUES (?, 'own', ?)", arguments: ["own-\(index)", "own item \(index)"])
            }
        }
        let servers = deployment.servers.map(\.url)
        let ownerClient = SyncClient(store: owner, server: servers[0], token: ownerToken)
        // The first push of the list is setup, not measured: on a busy machine a batch of
        // 5,000 changes to place took over the default 10 s request timeout.
        var setupClient = ownerClient
        setupClient.requestTimeout = .seconds(300)
        var pushed = 0
        let push = try await ContinuousClock().measure {
            pushed = try await failing("the owner's first push") { try await setupClient.synchronize().pushed }
        }
        try await failing("the member's first sync") {
            try await SyncClient(store: member, server: servers[1], token: memberToken).synchronize()
        }
        try await failing("the owner's second device's first sync") {
            try await SyncClient(store: ownerSecond, server: servers[1], token: ownerToken).synchronize()
        }
        let held = try await ownerSecond.read { db in try SharedListsSchema.counts(in: db) }
        guard held.items == items, held.tags == tags else {
            throw BenchmarkFailure(description: "the owner's second device holds \(held.items) items and \(held.tags) tags")
        }

        let byTitle = StoreRequest<ListItem>().order(Column("title").ascending)
        let lists = Lists(
            owner: try ChangeSetProbe(store: owner, request: byTitle), member: try ChangeSetProbe(store: member, request: byTitle))
        // The owner's device and the member's sync through different server processes; the
        // owner's second device through the member's.
        let sessions = [(owner, servers[0], ownerToken), (ownerSecond, servers[1], ownerToken), (member, servers[1], memberToken)].map {
            store, server, token in Task { try await SyncClient(store: store, server: server, token: token).run() }
        }
        try await Task.sleep(for: .seconds(1))  // each client's first push and pull, then its long poll
        let devices = Devices(
            owner: ownerClient, ownerSecond: ownerSecond, member: member, memberToken: memberToken, memberServer: servers[1],
            postmaster: try PostgresCluster.shared.get().postmasterProcessID(), servers: deployment.servers.map(\.processIdentifier))
        var outcome: Result?
        var failure: (any Error)?
        do {
            var shares: [ShareRound] = []
            var revocations: [RevokeRound] = []
            var writes: (member: [Duration], own: [Duration]) = ([], [])
            for round in 1...rounds {
                shares.append(try await share(on: devices, lists: lists, tags: tags))
                if round == 1 { writes = try await retitle(itemIDs, on: devices, lists: lists) }
                revocations.append(try await revoke(on: devices, lists: lists))
                try await Task.sleep(for: .milliseconds(500))
            }
            outcome = Result(
                items: items, tags: tags, push: push, pushedChanges: pushed, shares: shares, memberWrites: Percentiles(writes.member),
                ownWrites: Percentiles(writes.own), revocations: revocations)
        } catch {
            failure = error
        }
        for session in sessions {
            session.cancel()
            _ = await session.result  // the stores close after their clients stopped
        }
        withExtendedLifetime((stores, deployment)) {}
        if let failure { throw failure }
        guard let outcome else { throw BenchmarkFailure(description: "the sharing run measured nothing") }
        return outcome
    }

    /// The live lists of the owner's device and of the member's.
    private struct Lists {
        let owner: ChangeSetProbe<ListItem>
        let member: ChangeSetProbe<ListItem>
    }

    /// The devices and processes a measurement works with.
    private struct Devices {
        /// The owner's client on the owner's device, which shares and revokes.
        let owner: SyncClient
        let ownerSecond: Store
        let member: Store
        let memberToken: String
        let memberServer: URL
        let postmaster: Int32
        let servers: [Int32]

        func cpu() -> CPUUse { CPUUse(postmaster: postmaster, servers: servers) }
    }

    /// The shared list's key.
    private nonisolated static let list = "groceries"

    /// Writes the owner's list: `items` items with random titles, a tag on one in `tagEvery`.
    private func fillOwnersList(_ store: Store) async throws -> (items: [String], tags: Int) {
        var random = SplitMix64(seed: 57)
        let ids = (0..<items).map { _ in String(format: "%016llx%016llx", random.next(), random.next()) }
        let titles = ids.map { _ in SharedListsSchema.randomTitle(using: &random) }
        let tagged = ids.indices.filter { $0 % tagEvery == 0 }.map { ids[$0] }
        try await store.write { db in
            try db.execute(sql: "INSERT INTO lists(id, title) VALUES (?, 'Groceries')", arguments: [Self.list])
            for (id, title) in zip(ids, titles) {
                try db.execute(sql: "INSERT INTO items(id, list, title) VALUES (?, ?, ?)", arguments: [id, Self.list, title])
            }
            for id in tagged {
                try db.execute(sql: "INSERT INTO tags(id, item, label) VALUES (?, ?, 'on sale')", arguments: ["tag-" + id, id])
            }
        }
        return (ids, tagged.count)
    }

    /// Shares the list with the member and times its arrival on the member's device.
    private func share(on devices: Devices, lists: Lists, tags: Int) async throws -> ShareRound {
        let ownRows = 1 + Self.memberItems
        let sharedRows = 1 + items + tags
        let commits = try CommitWatch(store: devices.member, until: ownRows + sharedRows)
        let before = devices.cpu()
        let start = ContinuousClock.now
        var share: SyncShareMembers?
        let (shown, call) = try await lists.member.measure(until: { $0.count == Self.memberItems + items }) {
            share = try await devices.owner.share(table: "lists", key: .text(Self.list), with: "member", as: .writer)
        }
        let stamps = try await commits.stamps()
        let used = devices.cpu().since(before)
        guard let share, let first = stamps.first(where: { $0.rows > ownRows }), let last = stamps.last else {
            throw BenchmarkFailure(description: "the member's store never held the shared rows")
        }
        let reader = SharedPagesRead(server: devices.memberServer, token: devices.memberToken, share: share.share, limit: 5_000)
        var read = 0
        let pagesAlone = try await ContinuousClock().measure { read = try await reader.run() }
        guard read == sharedRows else { throw BenchmarkFailure(description: "the share's pages held \(read) of \(sharedRows) rows") }
        return ShareRound(
            call: call, firstRows: first.instant - start, held: last.instant - start, shown: shown,
            commits: stamps.map { ($0.instant - start, $0.rows) }, pagesAlone: pagesAlone, cpu: used)
    }

    /// The member and the owner's second device retitle items in turn (a pool of 50 each,
    /// each retitled once unmeasured first: a row's first edit after sync began sends all its
    /// cells), each write timed until the change set in the owner's list.
    private func retitle(_ itemIDs: [String], on devices: Devices, lists: Lists) async throws -> (member: [Duration], own: [Duration]) {
        var random = SplitMix64(seed: 58)
        let memberPool = Array(itemIDs.prefix(Self.pool))
        let ownPool = Array(itemIDs.dropFirst(Self.pool).prefix(Self.pool))
        func retitle(_ id: String, on store: Store) async throws -> Duration {
            let title = SharedListsSchema.randomTitle(using: &random)
            return try await lists.owner.measure {
                try await store.write { db in try db.execute(sql: "UPDATE items SET title = ? WHERE id = ?", arguments: [title, id]) }
            }.receipt
        }
        for (memberItem, ownItem) in zip(memberPool, ownPool) {
            _ = try await retitle(memberItem, on: devices.member)
            _ = try await retitle(ownItem, on: devices.ownerSecond)
        }
        var samples: (member: [Duration], own: [Duration]) = ([], [])
        for index in 0..<writes {
            samples.member.append(try await retitle(memberPool[index % memberPool.count], on: devices.member))
            samples.own.append(try await retitle(ownPool[index % ownPool.count], on: devices.ownerSecond))
        }
        let refused = try devices.member.sync.refusedChanges()
        guard refused.isEmpty else { throw BenchmarkFailure(description: "the server refused \(refused.count) of the member's writes") }
        return samples
    }

    /// Revokes the member's membership and times the removal of the rows from its device.
    private func revoke(on devices: Devices, lists: Lists) async throws -> RevokeRound {
        let ownRows = 1 + Self.memberItems
        let commits = try CommitWatch(store: devices.member, until: ownRows)
        let start = ContinuousClock.now
        let (shown, call) = try await lists.member.measure(until: { $0.count == Self.memberItems }) {
            try await devices.owner.revoke(table: "lists", key: .text(Self.list), from: "member")
        }
        guard let removed = try await commits.stamps().last else {
            throw BenchmarkFailure(description: "the member's store never removed the shared rows")
        }
        let held = try await devices.member.read { db in try SharedListsSchema.counts(in: db) }
        guard held == (1, Self.memberItems, 0) else {
            throw BenchmarkFailure(description: "after the revocation the member holds \(held) lists, items and tags")
        }
        return RevokeRound(call: call, removed: removed.instant - start, shown: shown)
    }
}

/// What `step` returns; its error, if it throws, says which step of the setup failed.
@MainActor @discardableResult
private func failing<T>(_ step: String, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw BenchmarkFailure(description: "\(step) failed: \(error)")
    }
}

/// The commits of a store from its creation on, each stamped on arrival with the rows
/// (lists, items and tags) the store holds after it, until it holds a given number. The rows
/// are counted once at the start, then followed through each commit's inserted and deleted
/// rows (read again only after a commit that changed a table wholly), so that each stamp
/// counts its own commit, not later ones.
struct CommitWatch {
    /// A commit's arrival.
    struct Stamp: Sendable {
        let instant: ContinuousClock.Instant
        let rows: Int
    }

    private let task: Task<[Stamp], any Error>

    /// Starts watching `store` now, until it holds `rows` rows; the store is quiet meanwhile.
    init(store: Store, until rows: Int) throws {
        let commits = store.changes(in: SharedListsSchema.tables)
        let held = { (db: Database) in
            let counts = try SharedListsSchema.counts(in: db)
            return counts.lists + counts.items + counts.tags
        }
        let start = try store.read(held)
        task = Task {
            var stamps: [Stamp] = []
            var count = start
            for await commit in commits {
                let instant = ContinuousClock.now
                let tables = SharedListsSchema.tables.map { commit.changes(in: $0) }
                if tables.contains(where: \.isWhollyChanged) {
                    count = try store.read(held)
                } else {
                    count += tables.reduce(0) { $0 + $1.inserted.count - $1.deleted.count }
                }
                stamps.append(Stamp(instant: instant, rows: count))
                if count == rows { return stamps }
            }
            throw BenchmarkFailure(description: "the store did not hold \(rows) rows in time")
        }
    }

    /// The commits until the store held the rows awaited; throws after `timeout`.
    func stamps(timeout: Duration = .seconds(60)) async throws -> [Stamp] {
        let task = task
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            task.cancel()
        }
        defer { watchdog.cancel() }
        return try await task.value
    }
}

/// A share's rows read as a member's device reads them after a grant, page after page over
/// HTTP, each page decoded as the client decodes it (`JSONDecoder`) and none applied.
struct SharedPagesRead {
    let server: URL
    let token: String
    let share: String
    let limit: Int

    /// Reads every page; returns how many rows they held.
    func run() async throws -> Int {
        let http = BenchmarkHTTP(connections: 1)
        do {
            var rows = 0
            var position: SyncSnapshotPosition?
            repeat {
                let page = try await fetch(after: position, http: http)
                rows += page.rows.count
                position = page.next
            } while position != nil
            try await http.shutdown()
            return rows
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func fetch(after position: SyncSnapshotPosition?, http: BenchmarkHTTP) async throws -> SyncSharedPage {
        typealias Query = SyncWireFormat.Query
        var items = [
            URLQueryItem(name: Query.format, value: String(SyncWireFormat.version)), URLQueryItem(name: Query.share, value: share),
            URLQueryItem(name: Query.limit, value: String(limit)),
        ]
        if let position {
            items += [URLQueryItem(name: Query.afterTable, value: position.table), URLQueryItem(name: Query.afterKey, value: position.key)]
        }
        var components = URLComponents(url: server.appendingPathComponent(SyncWireFormat.sharedPath), resolvingAgainstBaseURL: false)
        components?.queryItems = items
        guard let url = components?.url else { throw BenchmarkFailure(description: "not a server URL: \(server)") }
        let answer = try await http.send(url.absoluteString, token: token)
        guard answer.status == 200 else {
            throw BenchmarkFailure(description: "a page of the share was refused: \(String(buffer: answer.body))")
        }
        return try JSONDecoder().decode(SyncSharedPage.self, from: Data(answer.body.readableBytesView))
    }
}
