import Foundation
import NIOCore
import SQLiteStoreSyncProtocol
import SyncServerHarness

/// Server throughput: `clients` devices push at once, each as fast as its answers come, for
/// `duration`, to `serverCount` server processes on one database (client `i` to server
/// `i mod serverCount`). Each push holds `changesPerPush` new changes, in the wire format that
/// `SyncClient` sends; the devices are load generators without a local store, on
/// ``BenchmarkHTTP``, so that the cores go to the servers and PostgreSQL. The devices belong to `accounts` accounts (one push
/// at a time per account: the server serializes an account's pushes).
///
/// PostgreSQL's share is its processes' CPU time over that of PostgreSQL and the servers
/// together, read from `/proc` (Linux only).
struct SustainedPushes {
    let clients: Int
    let serverCount: Int
    let duration: Duration
    let changesPerPush: Int
    let accounts: Int

    /// What one run measured.
    struct Result: CustomStringConvertible {
        let configuration: SustainedPushes
        let elapsed: Duration
        let pushes: Int
        let changes: Int
        let pushTimes: Percentiles
        let cpu: CPUUse

        /// Changes stored a second.
        var perSecond: Double { Double(changes) / elapsed.seconds }

        var description: String {
            let c = configuration
            var text = """
                \(c.clients) clients (\(c.accounts) accounts, \(c.changesPerPush) changes a push), \(c.serverCount) server \
                process\(c.serverCount == 1 ? "" : "es"), \(String(format: "%.1f", elapsed.seconds)) s: \
                \(String(format: "%.0f", perSecond)) changes/s (\(pushes) pushes, \(changes) changes stored)
                    push round trip: \(pushTimes)
                """
            if let postgres = cpu.postgres, let servers = cpu.servers, let clients = cpu.clients {
                let share = postgres.seconds / (postgres.seconds + servers.seconds)
                let seconds = { (duration: Duration) in String(format: "%.2f s", duration.seconds) }
                text +=
                    "\n    CPU: PostgreSQL \(seconds(postgres)), servers \(seconds(servers)), clients \(seconds(clients)); "
                    + "PostgreSQL's share of PostgreSQL + servers: \(String(format: "%.0f", share * 100)) %"
            } else {
                text += "\n    CPU: not measured (needs Linux's /proc)"
            }
            return text
        }
    }

    func run() async throws -> Result {
        let stores = try BenchmarkStores()
        let deployment = try await BenchmarkDeployment(serverCount: serverCount, migrations: stores.migrations)
        let tokens = try (0..<accounts).map { try deployment.token(for: "account-\($0)") }
        let http = BenchmarkHTTP(connections: clients)
        do {
            let result = try await measure(deployment: deployment, tokens: tokens, http: http)
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func measure(deployment: BenchmarkDeployment, tokens: [String], http: BenchmarkHTTP) async throws -> Result {
        let postmaster = try PostgresCluster.shared.get().postmasterProcessID()
        let cpu = { CPUUse(postmaster: postmaster, servers: deployment.servers.map(\.processIdentifier)) }
        let before = cpu()
        let start = ContinuousClock.now
        let deadline = start + duration
        let outcomes = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for index in 0..<clients {
                let device = PushingDevice(
                    name: "device-\(index)", server: deployment.servers[index % serverCount].url.absoluteString,
                    token: tokens[index % accounts], changesPerPush: changesPerPush, http: http)
                group.addTask { try await device.push(until: deadline) }
            }
            return try await group.reduce(into: [[Duration]]()) { $0.append($1) }
        }
        let elapsed = ContinuousClock.now - start
        let after = cpu()
        let pushTimes = outcomes.flatMap { $0 }
        return Result(
            configuration: self, elapsed: elapsed, pushes: pushTimes.count, changes: pushTimes.count * changesPerPush,
            pushTimes: Percentiles(pushTimes), cpu: after.since(before))
    }
}

/// One device of ``SustainedPushes``: pushes new changes, one push at a time.
struct PushingDevice: Sendable {
    let name: String
    let server: String
    let token: String
    let changesPerPush: Int
    let http: BenchmarkHTTP

    /// Pushes until `deadline`; returns each push's round trip. Throws unless every push was
    /// stored whole.
    func push(until deadline: ContinuousClock.Instant) async throws -> [Duration] {
        var sequence: Int64 = 0
        var times: [Duration] = []
        while ContinuousClock.now < deadline {
            let hlc = Int64(Date().timeIntervalSince1970 * 1000) << 16
            let changes = (0..<changesPerPush).map { _ in
                sequence += 1
                return SyncWireChange(
                    device: name, sequence: sequence, table: "notes", key: .text("\(name)-\(sequence)"),
                    operation: .set(column: "title", value: .text("title \(sequence)")), hlc: hlc)
            }
            let body = ByteBuffer(bytes: try JSONEncoder().encode(SyncPushRequest(schemaVersion: 1, changes: changes)))
            let start = ContinuousClock.now
            let answer = try await http.send(server + SyncWireFormat.pushPath, token: token, body: body)
            times.append(ContinuousClock.now - start)
            let stored = try? JSONDecoder().decode(SyncPushResponse.self, from: Data(answer.body.readableBytesView)).stored
            guard answer.status == 200, stored == changesPerPush else {
                throw BenchmarkFailure(description: "\(name)'s push was not stored whole: \(String(buffer: answer.body))")
            }
        }
        return times
    }
}
