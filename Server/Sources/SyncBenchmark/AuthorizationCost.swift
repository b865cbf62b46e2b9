import Foundation
import NIOCore
import SQLiteStoreSyncProtocol
import SyncServerHarness

/// What authorizing every pushed change costs a server with sharing: the changes one server
/// process stores a second, with sharing off and on, from the same pushes.
///
/// Two databases in one PostgreSQL cluster, each with one server process of the lists schema
/// (``SharedListsSchema``): one without sharing, one sharing lists. `clients` devices (load
/// generators on ``BenchmarkHTTP``, without a local store, as ``SustainedPushes`` has them),
/// each of its own account, push as fast as their answers come for `duration`, in each
/// ``Case`` and ``Shape`` in turn, `rounds` times over, so that the machine's drift weighs on
/// every case alike. On the sharing server each owner has a private list and a list shared with
/// a member of its own as writer: no two devices' pushes wait for the same account's lock.
struct AuthorizationCost {
    let clients: Int
    let duration: Duration
    let changesPerPush: Int
    let rounds: Int

    /// Whose data the pushes of a run write, and on which server.
    enum Case: CaseIterable {
        /// The server without sharing; an owner's pushes into its list.
        case off
        /// The sharing server; an owner's pushes into its list that is not shared.
        case own
        /// The sharing server; an owner's pushes into its list shared with a member.
        case ownShared
        /// The sharing server; a writer member's pushes into the owner's shared list.
        case member

        /// How the table names it.
        var label: String {
            switch self {
            case .off: "sharing off: owner → own list"
            case .own: "sharing on: owner → own list, not shared"
            case .ownShared: "sharing on: owner → own list, shared"
            case .member: "sharing on: writer member → owner's list"
            }
        }
    }

    /// What a push holds.
    enum Shape: CaseIterable {
        /// New items: a list and a title each (half as many items as changes).
        case newItems
        /// Titles of items the list holds: one change an item, the same items every push.
        case edits

        /// How the table names it.
        var label: String {
            switch self {
            case .newItems: "new items"
            case .edits: "title edits"
            }
        }
    }

    /// One run of one case and shape.
    struct Run {
        /// The rows the sharing server had placed (`sync_rows`) when the run started.
        let placedBefore: Int
        let elapsed: Duration
        let changes: Int
        let pushTimes: [Duration]
        let cpu: CPUUse

        /// Changes stored a second.
        var perSecond: Double { Double(changes) / elapsed.seconds }

        /// Microseconds of CPU a stored change that `part` used.
        func microseconds(_ part: Duration?) -> Double? { part.map { $0.seconds * 1e6 / Double(max(changes, 1)) } }
    }

    /// What the runs measured.
    struct Result {
        let configuration: AuthorizationCost
        let runs: [Shape: [Case: [Run]]]

        /// The median changes a second of a case's runs.
        func perSecond(_ shape: Shape, _ scenario: Case) -> Double {
            median((runs[shape]?[scenario] ?? []).map(\.perSecond))
        }
    }

    func run() async throws -> Result {
        let stores = try BenchmarkStores(migration: SharedListsSchema.migration, tables: SharedListsSchema.tables)
        let off = try await BenchmarkDeployment(serverCount: 1, migrations: stores.migrations, tables: SharedListsSchema.tables)
        let on = try await BenchmarkDeployment(
            serverCount: 1, migrations: stores.migrations, tables: SharedListsSchema.tables, options: SharedListsSchema.sharingOptions)
        let http = BenchmarkHTTP(connections: clients)
        do {
            let accounts = try await prepare(off: off, on: on, http: http)
            var runs: [Shape: [Case: [Run]]] = [:]
            // The sharing server's rows (`sync_rows`) grow with every run of new items, and
            // placing new rows costs more in a bigger account: its cases run in the reverse
            // order every other round, so that none always meets the biggest accounts.
            var placed = accounts.count * (2 + 2 * changesPerPush)
            for round in 1...rounds {
                for shape in Shape.allCases {
                    let sharing = Case.allCases.filter { $0 != .off }
                    for scenario in [.off] + (round.isMultiple(of: 2) ? sharing.reversed() : sharing) {
                        let run = try await measure(scenario, shape, round: round, placedBefore: placed, accounts: accounts, http: http)
                        if scenario != .off && shape == .newItems { placed += run.changes / 2 }
                        runs[shape, default: [:]][scenario, default: []].append(run)
                    }
                }
            }
            try await http.shutdown()
            withExtendedLifetime((stores, off, on)) {}
            return Result(configuration: self, runs: runs)
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// One client's accounts and lists on both servers.
    private struct Accounts {
        /// The owner's token on the server without sharing, then on the sharing server; the member's there.
        let offOwner: String
        let owner: String
        let member: String
        /// The share of the owner's shared list, as the sharing server names it.
        let share: String
        let privateList: String
        let sharedList: String
        let offServer: String
        let onServer: String
        /// The server processes, for their CPU time.
        let offProcess: Int32
        let onProcess: Int32
    }

    /// The items each list holds for the edits: one a change of a push.
    private func poolItem(_ list: String, _ index: Int) -> String { "\(list)-item-\(index)" }

    /// Makes every client's accounts, writes their lists and the items the edits retitle, and
    /// shares each owner's shared list with its member.
    private func prepare(off: BenchmarkDeployment, on: BenchmarkDeployment, http: BenchmarkHTTP) async throws -> [Accounts] {
        var accounts: [Accounts] = []
        for index in 0..<clients {
            let (privateList, sharedList) = ("private-\(index)", "shared-\(index)")
            let offOwner = try off.token(for: "owner-\(index)")
            let owner = try on.token(for: "owner-\(index)")
            let member = try on.token(for: "member-\(index)")
            let (offServer, onServer) = (off.servers[0].url.absoluteString, on.servers[0].url.absoluteString)
            let offDevice = PushingListDevice(name: "setup-\(index)", server: offServer, token: offOwner, http: http)
            try await offDevice.send(setupPush(lists: [privateList], device: offDevice.name))
            let onDevice = PushingListDevice(name: "setup-\(index)", server: onServer, token: owner, http: http)
            try await onDevice.send(setupPush(lists: [privateList, sharedList], device: onDevice.name))
            let request = SyncShareRequest(table: "lists", key: .text(sharedList), member: "member-\(index)", role: .writer)
            let answer = try await http.send(
                onServer + SyncWireFormat.sharesPath, token: owner, body: ByteBuffer(bytes: try JSONEncoder().encode(request)))
            guard answer.status == 200 else { throw BenchmarkFailure(description: "the share was refused: \(String(buffer: answer.body))") }
            let members = try JSONDecoder().decode(SyncShareMembers.self, from: Data(answer.body.readableBytesView))
            accounts.append(
                Accounts(
                    offOwner: offOwner, owner: owner, member: member, share: members.share, privateList: privateList,
                    sharedList: sharedList, offServer: offServer, onServer: onServer, offProcess: off.servers[0].processIdentifier,
                    onProcess: on.servers[0].processIdentifier))
        }
        return accounts
    }

    /// A push by `device` that writes `lists` and, in each, the items the edits retitle (a list
    /// and a title each).
    private func setupPush(lists: [String], device: String) -> SyncPushRequest {
        let hlc = Int64(Date().timeIntervalSince1970 * 1000) << 16
        var changes: [SyncWireChange] = []
        func set(_ table: String, _ key: String, _ column: String, _ value: String) {
            changes.append(
                SyncWireChange(
                    device: device, sequence: Int64(changes.count + 1), table: table, key: .text(key),
                    operation: .set(column: column, value: .text(value)), hlc: hlc))
        }
        for list in lists {
            set("lists", list, "title", "a list")
            for index in 0..<changesPerPush {
                set("items", poolItem(list, index), "list", list)
                set("items", poolItem(list, index), "title", "item \(index)")
            }
        }
        return SyncPushRequest(schemaVersion: SharedListsSchema.schemaVersion, changes: changes)
    }

    /// Runs `scenario` with pushes of `shape` from every client for `duration`.
    private func measure(
        _ scenario: Case, _ shape: Shape, round: Int, placedBefore: Int, accounts: [Accounts], http: BenchmarkHTTP
    ) async throws -> Run {
        guard let first = accounts.first else { throw BenchmarkFailure(description: "no clients") }
        let postmaster = try PostgresCluster.shared.get().postmasterProcessID()
        let server = scenario == .off ? first.offProcess : first.onProcess
        let cpu = { CPUUse(postmaster: postmaster, servers: [server]) }
        let changesPerPush = changesPerPush
        let devices = accounts.enumerated().map { index, account in
            let list = scenario == .off || scenario == .own ? account.privateList : account.sharedList
            let (server, token) =
                switch scenario {
                case .off: (account.offServer, account.offOwner)
                case .own, .ownShared: (account.onServer, account.owner)
                case .member: (account.onServer, account.member)
                }
            let device = PushingListDevice(name: "\(scenario)-\(shape)-\(round)-\(index)", server: server, token: token, http: http)
            let pool = (0..<changesPerPush).map { poolItem(list, $0) }
            let claims = scenario == .member ? pool.map { SyncSharedRow(table: "items", key: .text($0), share: account.share) } : []
            return (device, list, pool, claims)
        }
        let before = cpu()
        let start = ContinuousClock.now
        let deadline = start + duration
        let times = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for (device, list, pool, claims) in devices {
                group.addTask {
                    switch shape {
                    case .newItems: try await device.pushNewItems(into: list, changesPerPush: changesPerPush, until: deadline)
                    case .edits: try await device.pushEdits(of: pool, claims: claims, until: deadline)
                    }
                }
            }
            return try await group.reduce(into: [Duration]()) { $0 += $1 }
        }
        let elapsed = ContinuousClock.now - start
        return Run(
            placedBefore: placedBefore, elapsed: elapsed, changes: times.count * changesPerPush, pushTimes: times, cpu: cpu().since(before))
    }
}

/// A device of ``AuthorizationCost``: pushes changes of the lists schema in the wire format that
/// `SyncClient` sends, one push at a time.
struct PushingListDevice: Sendable {
    let name: String
    let server: String
    let token: String
    let http: BenchmarkHTTP

    /// Pushes new items into `list`, `changesPerPush / 2` a push (a list and a title each),
    /// until `deadline`; returns each push's round trip.
    func pushNewItems(into list: String, changesPerPush: Int, until deadline: ContinuousClock.Instant) async throws -> [Duration] {
        var (sequence, item): (Int64, Int) = (0, 0)
        var times: [Duration] = []
        while ContinuousClock.now < deadline {
            let hlc = Int64(Date().timeIntervalSince1970 * 1000) << 16
            var changes: [SyncWireChange] = []
            for _ in 0..<changesPerPush / 2 {
                item += 1
                for (column, value) in [("list", list), ("title", "item \(item)")] {
                    sequence += 1
                    changes.append(
                        SyncWireChange(
                            device: name, sequence: sequence, table: "items", key: .text("\(name)-\(item)"),
                            operation: .set(column: column, value: .text(value)), hlc: hlc))
                }
            }
            times.append(try await send(SyncPushRequest(schemaVersion: SharedListsSchema.schemaVersion, changes: changes)))
        }
        return times
    }

    /// Pushes a new title of every item of `pool` a push, naming `claims` as the rows it holds
    /// through a share, until `deadline`; returns each push's round trip.
    func pushEdits(of pool: [String], claims: [SyncSharedRow], until deadline: ContinuousClock.Instant) async throws -> [Duration] {
        var sequence: Int64 = 0
        var times: [Duration] = []
        while ContinuousClock.now < deadline {
            let hlc = Int64(Date().timeIntervalSince1970 * 1000) << 16
            let changes = pool.map { item in
                sequence += 1
                return SyncWireChange(
                    device: name, sequence: sequence, table: "items", key: .text(item),
                    operation: .set(column: "title", value: .text("title \(sequence)")), hlc: hlc)
            }
            times.append(try await send(SyncPushRequest(schemaVersion: SharedListsSchema.schemaVersion, changes: changes, shared: claims)))
        }
        return times
    }

    /// Sends `push` and returns its round trip; throws unless every change was stored.
    @discardableResult
    func send(_ push: SyncPushRequest) async throws -> Duration {
        let body = ByteBuffer(bytes: try JSONEncoder().encode(push))
        let start = ContinuousClock.now
        let answer = try await http.send(server + SyncWireFormat.pushPath, token: token, body: body)
        let time = ContinuousClock.now - start
        let response = try? JSONDecoder().decode(SyncPushResponse.self, from: Data(answer.body.readableBytesView))
        guard answer.status == 200, let response, response.stored == push.changes.count, response.refused.isEmpty else {
            throw BenchmarkFailure(description: "\(name)'s push was not stored whole: \(String(buffer: answer.body))")
        }
        return time
    }
}

/// The median of `values` (the mean of the two middle ones of an even count); NaN when empty.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
}
