import Foundation
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

/// What an operator and a load balancer see of a server: `/health`, `/ready`, `/metrics`,
/// request ids, and a stop on SIGTERM that loses no acknowledged push.
@Suite("Operating the sync server", .timeLimit(.minutes(2)))
struct OperationsTests {
    @Test("/health and /ready answer 200 with a reachable PostgreSQL and the server's tables created")
    func healthAndReady() async throws {
        let server = try await ServerFixture().startServer()
        let health = try await HTTP.send("GET", server.url.appendingPathComponent("health"), token: nil)
        #expect(health.status == 200, "\(health.text)")
        let ready = try await HTTP.send("GET", server.url.appendingPathComponent("ready"), token: nil)
        #expect(ready.status == 200 && ready.text == #"{"ok":true}"#, "\(ready.text)")
    }

    @Test("With PostgreSQL unreachable the server still serves /health and /metrics; /ready answers 503 and why")
    func notReadyWithoutPostgres() async throws {
        let nothing = try PostgresCluster.freePort()
        let server = try await SyncServerProcess(
            database: "postgres://postgres@127.0.0.1:\(nothing)/sync", migrations: try SyncedStores.migrations(),
            tables: SyncedStores.tables, ready: false)
        #expect(try await HTTP.send("GET", server.url.appendingPathComponent("health"), token: nil).status == 200)
        #expect(try await HTTP.send("GET", server.url.appendingPathComponent("metrics"), token: nil).status == 200)
        let ready = try await HTTP.send("GET", server.url.appendingPathComponent("ready"), token: nil)
        #expect(ready.status == 503, "\(ready.text)")
        let status = try ready.decode(ReadyStatus.self)
        #expect(!status.ok && status.reason?.contains("PostgreSQL") == true, "\(ready.text)")
    }

    @Test("/metrics counts requests by endpoint and status, changes stored, pushes timed and the devices waiting")
    func metricsMove() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        let before = try await Self.metrics(server)
        #expect(before["sync_compaction_runs_total"] == 0)
        #expect(before["sync_connected_devices"] == 0)
        #expect(before["sync_change_log_rows"] != nil)

        let changes = (1...3).map { ServerFixture.change(sequence: $0) }
        #expect(try await HTTP.send("POST", push, token: token, body: try ServerFixture.push(changes)).status == 200)
        #expect(try await HTTP.send("POST", push, token: "forged", body: try ServerFixture.push(changes)).status == 401)
        let after = try await Self.metrics(server)
        let pushes = #"sync_requests_total{endpoint="/v1/push",status="200"}"#
        let refusals = #"sync_requests_total{endpoint="/v1/push",status="401"}"#
        #expect(after[pushes, default: 0] == before[pushes, default: 0] + 1)
        #expect(after[refusals, default: 0] == before[refusals, default: 0] + 1)
        #expect(after["sync_changes_stored_total", default: 0] == before["sync_changes_stored_total", default: 0] + 3)
        #expect(after["sync_push_duration_seconds_count", default: 0] == before["sync_push_duration_seconds_count", default: 0] + 2)

        // A device waiting in a long poll is connected until a change answers it.
        let poll = Task { try await HTTP.send("GET", ServerFixture.pullURL(server.url, since: 3, wait: 30), token: token) }
        try await Self.waitForMetric(server, "sync_connected_devices", toBe: 1)
        let more = try ServerFixture.push([ServerFixture.change(sequence: 4)])
        #expect(try await HTTP.send("POST", push, token: token, body: more).status == 200)
        #expect(try await poll.value.decode(SyncPullResponse.self).cursor == 4)
        try await Self.waitForMetric(server, "sync_connected_devices", toBe: 0)
        let polled = try await Self.metrics(server)
        #expect(polled[#"sync_pull_duration_seconds_count{long_poll="true"}"#] == 1)
    }

    @Test("A request's id is the client's X-Request-ID when usable, else a new one; echoed, and on the request's log lines")
    func requestIDs() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer(options: ["--log-level", "info"])
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        let body = try ServerFixture.push([ServerFixture.change(sequence: 1)])
        let given = try await HTTP.send("POST", push, token: "forged", body: body, headers: ["X-Request-ID": "probe-4711"])
        #expect(given.status == 401)
        #expect(given.headers["x-request-id"] == "probe-4711")

        let made = try await HTTP.send("GET", server.url.appendingPathComponent("health"), token: nil)
        let overlong = String(repeating: "x", count: 129)
        let refused = try await HTTP.send(
            "GET", server.url.appendingPathComponent("nowhere"), token: nil, headers: ["X-Request-ID": overlong])
        #expect(refused.status == 404)
        let ids = [made.headers["x-request-id"], refused.headers["x-request-id"]]
        #expect(ids.allSatisfy { $0?.isEmpty == false } && Set(ids).count == 2 && !ids.contains(overlong), "\(ids)")

        // The endpoint's own line (the refusal) and the answer's line both carry the id.
        let lines = try await Self.waitForLines(of: server, containing: "probe-4711", count: 2)
        #expect(lines.contains { $0.contains("refused") } && lines.contains { $0.contains("answered") }, "\(lines)")
    }

    /// Devices push without pause while the server is told to stop: it stops accepting, finishes
    /// the pushes in flight and exits 0, and every push it acknowledged is stored, once. The
    /// pushes in flight are held there (their account's lock taken by the test) until after
    /// SIGTERM, so that finishing them is what the test sees.
    @Test("SIGTERM during a stream of pushes: every acknowledged push is stored exactly once, and the process exits 0")
    func drainsOnSIGTERM() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        let devices = (0..<4).map { "pusher-\($0)" }
        let stopped = Flag()
        let pushers = devices.map { device in
            Task { () -> (acknowledged: [Int64], afterStop: Int, sent: [Int64]) in
                var acknowledged: [Int64] = []
                var afterStop = 0
                var sent: [Int64] = []
                var next: Int64 = 1
                while true {
                    let changes = (next..<next + 20).map { ServerFixture.change(device: device, sequence: $0) }
                    sent += changes.map(\.sequence)
                    next += 20
                    guard let answer = try? await HTTP.send("POST", push, token: token, body: try ServerFixture.push(changes)),
                        answer.status == 200
                    else { return (acknowledged, afterStop, sent) }
                    acknowledged += changes.map(\.sequence)
                    if stopped.isSet { afterStop += 1 }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        try await ServerDatabase.holdingPushLock(of: "alice", in: fixture.database) {
            // Until every device's next push waits for the lock in the server (up to 10 s).
            for _ in 0..<200 {
                if try await ServerDatabase.advisoryLockWaiters(in: fixture.database) == devices.count { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            stopped.set()
            server.terminate()
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await server.exitStatus(waitingUpTo: .zero) == nil, "it waits for its pushes in flight")
        }
        #expect(try await server.exitStatus(waitingUpTo: .seconds(30)) == 0, "\(server.log)")
        let stored = try await ServerDatabase.changes(in: fixture.database)
        #expect(Set(stored.map { "\($0.device)#\($0.sequence)" }).count == stored.count, "stored once")
        for (device, pusher) in zip(devices, pushers) {
            let (acknowledged, afterStop, sent) = await pusher.value
            let held = Set(stored.filter { $0.device == device }.map(\.sequence))
            #expect(afterStop == 1, "\(device): its push in flight at SIGTERM is answered, the next one refused")
            #expect(held.isSuperset(of: acknowledged), "\(device): an acknowledged push is missing")
            #expect(held.isSubset(of: sent))
        }
    }

    /// The body of `/ready`.
    struct ReadyStatus: Decodable {
        let ok: Bool
        let reason: String?
    }

    /// The samples of `/metrics`, by name and labels as written (`name{label="value"}`).
    static func metrics(_ server: SyncServerProcess) async throws -> [String: Double] {
        let answer = try await HTTP.send("GET", server.url.appendingPathComponent("metrics"), token: nil)
        #expect(answer.status == 200)
        var samples: [String: Double] = [:]
        for line in answer.text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// Waits up to 10 s for the metric `name` to show `value`.
    static func waitForMetric(_ server: SyncServerProcess, _ name: String, toBe value: Double) async throws {
        for _ in 0..<100 {
            if try await metrics(server)[name] == value { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("\(name) did not become \(value): \(try await metrics(server)[name] ?? -1)")
    }

    /// The server's log lines that contain `text`, once there are `count` of them (up to 10 s).
    static func waitForLines(of server: SyncServerProcess, containing text: String, count: Int) async throws -> [Substring] {
        var lines: [Substring] = []
        for _ in 0..<100 {
            lines = server.log.split(separator: "\n").filter { $0.contains(text) }
            if lines.count >= count { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return lines
    }
}
