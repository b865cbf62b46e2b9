import Foundation
import NIOCore
import SQLiteStoreSyncProtocol
import SyncServerHarness

/// Connected devices per server process: `devices` devices, `devices / accounts` to an
/// account, each holding a long poll (`GET /v1/changes?wait=60`) on one server process and
/// polling again at each answer, as `SyncClient.run()` does. Once the server counts them all
/// connected (its `sync_connected_devices` gauge), a writer pushes `changes` changes, one a
/// push, `interval` apart, each to the next account in turn: the time from before a push is
/// sent to its change's arrival at each connected device of its account is the latency, p50
/// to max over every arrival. The server's resident memory (`/proc`) is read before the
/// devices connect and once they all are: the difference over `devices` is the memory a
/// connected device costs.
struct ConnectedDevices {
    let devices: Int
    let accounts: Int
    let changes: Int
    let interval: Duration

    /// What one run measured.
    struct Result: CustomStringConvertible {
        let configuration: ConnectedDevices
        /// From the first long poll sent to the server counting them all connected.
        let connecting: Duration
        let residentBefore: Int?
        let residentConnected: Int?
        /// The fewest devices the server counted connected while the changes were pushed.
        let fewestConnected: Int
        let arrivals: Percentiles
        let arrived: Int
        let expected: Int
        let pushTimes: Percentiles
        let cpu: CPUUse

        var description: String {
            let c = configuration
            let mebibytes = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
            var text = """
                \(c.devices) devices connected by long poll (\(c.accounts) accounts), 1 server process: all connected in \
                \(String(format: "%.1f", connecting.seconds)) s
                """
            if let before = residentBefore, let connected = residentConnected {
                text +=
                    "\n    server memory (RSS): \(mebibytes(before)) before, \(mebibytes(connected)) connected: "
                    + "\(String(format: "%.1f", Double(connected - before) / Double(c.devices) / 1024)) KiB a device"
            } else {
                text += "\n    server memory: not measured (needs Linux's /proc)"
            }
            text += """

                    \(c.changes) changes pushed \(Percentiles.format(c.interval.milliseconds)) apart, \
                \(fewestConnected) or more devices connected meanwhile: \(arrived) of \(expected) arrivals
                    push → connected device: \(arrivals)
                    push round trip: \(pushTimes)
                """
            if let postgres = cpu.postgres, let servers = cpu.servers, let clients = cpu.clients {
                let seconds = { (duration: Duration) in String(format: "%.2f s", duration.seconds) }
                text += "\n    CPU while pushing: PostgreSQL \(seconds(postgres)), server \(seconds(servers)), devices \(seconds(clients))"
            }
            return text
        }
    }

    func run() async throws -> Result {
        let stores = try BenchmarkStores()
        let deployment = try await BenchmarkDeployment(serverCount: 1, migrations: stores.migrations)
        let server = deployment.servers[0]
        let tokens = try (0..<accounts).map { try deployment.token(for: "account-\($0)") }
        let http = BenchmarkHTTP(connections: devices + 16)
        do {
            let result = try await measure(server: server, tokens: tokens, http: http)
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func measure(server: SyncServerProcess, tokens: [String], http: BenchmarkHTTP) async throws -> Result {
        let base = server.url.absoluteString
        let writer = ChangeWriter(http: http, server: base)
        // The server's pools and PostgreSQL's caches warm, as a running server's are.
        for account in 0..<min(accounts, 16) {
            _ = try await writer.push(account: account, token: tokens[account], arrivals: nil)
        }
        let residentBefore = ProcessMemory.residentBytes(of: server.processIdentifier)
        let arrivals = Arrivals()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            let start = ContinuousClock.now
            for index in 0..<devices {
                let device = LongPollingDevice(
                    name: "device-\(index)", http: http, server: base, token: tokens[index % accounts], arrivals: arrivals)
                group.addTask { try await device.poll() }
            }
            try await waitUntilConnected(http: http, server: base)
            let connecting = ContinuousClock.now - start
            let residentConnected = ProcessMemory.residentBytes(of: server.processIdentifier)
            let postmaster = try PostgresCluster.shared.get().postmasterProcessID()
            let cpu = { CPUUse(postmaster: postmaster, servers: [server.processIdentifier]) }
            let before = cpu()
            var fewestConnected = devices
            var pushTimes: [Duration] = []
            for index in 0..<changes {
                let account = index % accounts
                pushTimes.append(try await writer.push(account: account, token: tokens[account], arrivals: arrivals))
                if index % 10 == 0 { fewestConnected = min(fewestConnected, try await connectedDevices(http: http, server: base)) }
                try await Task.sleep(for: interval)
            }
            let expected = (0..<changes).reduce(0) { sum, index in sum + devicesOf(account: index % accounts) }
            let waitEnd = ContinuousClock.now + .seconds(10)
            while await arrivals.count < expected, ContinuousClock.now < waitEnd { try await Task.sleep(for: .milliseconds(50)) }
            let used = cpu().since(before)
            group.cancelAll()
            // A device that failed before its task was cancelled fails the run.
            while try await group.next() != nil {}
            let latencies = await arrivals.latencies
            return Result(
                configuration: self, connecting: connecting, residentBefore: residentBefore, residentConnected: residentConnected,
                fewestConnected: fewestConnected, arrivals: Percentiles(latencies), arrived: latencies.count, expected: expected,
                pushTimes: Percentiles(pushTimes), cpu: used)
        }
    }

    /// How many of the devices belong to `account` (device `i` to account `i mod accounts`).
    private func devicesOf(account: Int) -> Int { devices / accounts + (account < devices % accounts ? 1 : 0) }

    /// Waits until the server counts every device connected, for up to 5 minutes.
    private func waitUntilConnected(http: BenchmarkHTTP, server: String) async throws {
        let deadline = ContinuousClock.now + .seconds(300)
        var connected = 0
        while ContinuousClock.now < deadline {
            connected = try await connectedDevices(http: http, server: server)
            if connected >= devices { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw BenchmarkFailure(description: "only \(connected) of \(devices) devices connected after 5 minutes")
    }

    /// The devices the server counts connected now.
    private func connectedDevices(http: BenchmarkHTTP, server: String) async throws -> Int {
        let answer = try await http.send(server + "/metrics", token: "")
        guard answer.status == 200, let value = ServerGauge.value(of: "sync_connected_devices", in: answer.body) else {
            throw BenchmarkFailure(description: "/metrics answered \(answer.status) without sync_connected_devices")
        }
        return Int(value)
    }
}

/// When each change of ``ConnectedDevices`` was pushed, and how long each took to reach each
/// device that received it.
actor Arrivals {
    private var sent: [String: ContinuousClock.Instant] = [:]
    /// Each arrival's time since its push was sent.
    private(set) var latencies: [Duration] = []

    var count: Int { latencies.count }

    /// The change keyed `key` is about to be pushed.
    func sending(_ key: String, at instant: ContinuousClock.Instant) { sent[key] = instant }

    /// The change keyed `key` reached a device at `instant`.
    func arrived(_ key: String, at instant: ContinuousClock.Instant) {
        if let start = sent[key] { latencies.append(instant - start) }
    }
}

/// The writer of ``ConnectedDevices``: one change a push, as a device that is not connected.
struct ChangeWriter: Sendable {
    let http: BenchmarkHTTP
    let server: String
    private let sequences = SequenceCounter()

    init(http: BenchmarkHTTP, server: String) {
        self.http = http
        self.server = server
    }

    /// Pushes one new change to `account` as device `writer-<account>`, noting in `arrivals`
    /// when it is sent; returns the push's round trip.
    func push(account: Int, token: String, arrivals: Arrivals?) async throws -> Duration {
        let device = "writer-\(account)"
        let sequence = await sequences.next(for: device)
        let key = "\(device)-\(sequence)"
        let change = SyncWireChange(
            device: device, sequence: sequence, table: "notes", key: .text(key), operation: .set(column: "title", value: .text(key)),
            hlc: Int64(Date().timeIntervalSince1970 * 1000) << 16)
        let body = ByteBuffer(bytes: try JSONEncoder().encode(SyncPushRequest(schemaVersion: Note.schemaVersion, changes: [change])))
        let start = ContinuousClock.now
        await arrivals?.sending(key, at: start)
        let answer = try await http.send(server + SyncWireFormat.pushPath, token: token, body: body)
        guard answer.status == 200 else {
            throw BenchmarkFailure(description: "\(device)'s push was refused (\(answer.status)): \(String(buffer: answer.body))")
        }
        return ContinuousClock.now - start
    }
}

/// The next sequence of each device that ``ChangeWriter`` pushes as.
actor SequenceCounter {
    private var sequences: [String: Int64] = [:]

    /// The next sequence of `device`, from 1.
    func next(for device: String) -> Int64 {
        sequences[device, default: 0] += 1
        return sequences[device, default: 0]
    }
}

/// One device of ``ConnectedDevices``: a long poll at a time, until its task is cancelled.
struct LongPollingDevice: Sendable {
    let name: String
    let http: BenchmarkHTTP
    let server: String
    let token: String
    let arrivals: Arrivals

    /// Polls from cursor 0, noting each change's arrival; throws when a poll fails before its
    /// task is cancelled.
    func poll() async throws {
        typealias Query = SyncWireFormat.Query
        var cursor: Int64 = 0
        while !Task.isCancelled {
            let url =
                "\(server)\(SyncWireFormat.pullPath)?\(Query.format)=\(SyncWireFormat.version)&\(Query.since)=\(cursor)"
                + "&\(Query.limit)=1000&\(Query.wait)=60&\(Query.device)=\(name)"
            let answer: BenchmarkHTTP.Answer
            do {
                answer = try await http.send(url, token: token)
            } catch {
                if Task.isCancelled { return }
                throw BenchmarkFailure(description: "\(name)'s long poll failed: \(error)")
            }
            let arrival = ContinuousClock.now
            guard answer.status == 200 else {
                throw BenchmarkFailure(description: "\(name)'s long poll was refused (\(answer.status)): \(String(buffer: answer.body))")
            }
            let pulled = try SyncPullResponse(json: Data(answer.body.readableBytesView))
            for change in pulled.changes {
                if case .text(let key) = change.key { await arrivals.arrived(key, at: arrival) }
            }
            cursor = pulled.cursor
        }
    }
}
