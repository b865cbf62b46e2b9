import Foundation
import NIOConcurrencyHelpers
import SQLiteStore
import SyncServerHarness
import Testing

/// Two server processes on one PostgreSQL behind one address (``LoopbackBalancer``, a load
/// balancer), under sustained writes from devices that sync live (`SyncClient.run()`), are
/// restarted one at a time, three times each, as an operator rolls out a new version: SIGTERM,
/// the balancer turns to the other process, the process exits, a new one starts on its port
/// and answers `/ready`. Every change the devices made is stored exactly once, every device
/// converges, and no device's sync stops on an error. The longest pause each device saw (the
/// longest a change of its waited in its outbox) is printed: a figure, not asserted.
@Suite("Rolling restart", .serialized, .timeLimit(.minutes(4)))
struct RollingRestartTests {
    @Test("A rolling restart of both servers under sustained pushes loses nothing and stops no device")
    func aRollingRestartLosesNothing() async throws {
        let fixture = try ServerFixture()
        var servers = [try await fixture.startServer(), try await fixture.startServer()]
        let ports = servers.map(\.port)
        let balancer = try await LoopbackBalancer(routingTo: ports[0])
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 4)
        let stores = clients.stores
        let failures = NIOLockedValueBox<[String]>([])
        let writing = NIOLockedValueBox(true)
        let pauses = PauseWatch(stores)
        var syncing: [Task<Void, Never>] = []
        var writers: [Task<Void, Never>] = []
        for (index, store) in stores.enumerated() {
            syncing.append(
                Task {
                    do {
                        try await SyncClient(store: store, server: balancer.url, token: token).run()
                    } catch is CancellationError {
                    } catch {
                        failures.withLockedValue { $0.append("device \(index): \(error)") }
                    }
                })
            writers.append(
                Task {
                    var row = 0
                    while writing.withLockedValue({ $0 }) {
                        row += 1
                        let (key, n) = ("d\(index)-\(row)", row)
                        do {
                            try await store.write { db in
                                try db.execute(sql: "INSERT INTO items(id, title, n) VALUES (?, 'x', ?)", arguments: [key, n])
                            }
                            pauses.written(index, upTo: try await SyncedStores.changesMade(by: store))
                        } catch {
                            failures.withLockedValue { $0.append("device \(index) could not write: \(error)") }
                        }
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                })
        }
        let watching = Task { await pauses.watch() }

        try await Task.sleep(for: .milliseconds(500))
        for restart in 0..<6 {
            let stopping = restart % 2
            servers[stopping].terminate()
            balancer.route(to: ports[1 - stopping])
            let status = try await servers[stopping].exitStatus(waitingUpTo: .seconds(30))
            #expect(status == 0, "server \(stopping) exited with \(String(describing: status)) at restart \(restart)")
            servers[stopping] = try await fixture.startServer(port: ports[stopping])
            try await Task.sleep(for: .milliseconds(300))
        }

        writing.withLockedValue { $0 = false }
        for writer in writers { await writer.value }
        for task in syncing { task.cancel() }
        for task in syncing { await task.value }
        watching.cancel()
        await watching.value
        let storedLive = try await ServerDatabase.changes(in: fixture.database).count
        // Twice: the first round's later devices push what the earlier ones then pull.
        for _ in 0..<2 {
            for store in stores { try await SyncClient(store: store, server: balancer.url, token: token).synchronize() }
        }
        try await balancer.close()

        #expect(failures.withLockedValue { $0 }.isEmpty, "\(failures.withLockedValue { $0 })")
        let stored = try await ServerDatabase.changes(in: fixture.database)
        for store in stores {
            let device = try store.sync.deviceID()
            let made = try await SyncedStores.changesMade(by: store)
            #expect(made > 0)
            let sequences = stored.filter { $0.device == device }.map(\.sequence).sorted()
            #expect(sequences == Array(stride(from: 1, through: made, by: 1)), "device \(device): each change stored once")
        }
        let expected = try SyncedStores.dump(stores[0], table: "items")
        for store in stores { #expect(try SyncedStores.dump(store, table: "items") == expected) }
        let longest = pauses.longest.map { "\($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) ms" }
        print(
            "rolling restart: \(stored.count) changes stored (\(storedLive) while syncing live), 6 restarts; longest pause per device: "
                + longest.joined(separator: ", "))
    }
}

/// Keeps, for each device, the longest time one of its changes waited in its outbox: when it
/// was written (``written(_:upTo:)``) against the outbox's oldest change, sampled every 10 ms.
private final class PauseWatch: Sendable {
    private let stores: [Store]
    /// Per device, the time of each write and the highest change sequence it made; and the
    /// longest wait seen.
    private let state: NIOLockedValueBox<(writes: [[(sequence: Int64, at: ContinuousClock.Instant)]], longest: [Duration])>

    init(_ stores: [Store]) {
        self.stores = stores
        state = NIOLockedValueBox((Array(repeating: [], count: stores.count), Array(repeating: .zero, count: stores.count)))
    }

    var longest: [Duration] { state.withLockedValue { $0.longest } }

    /// Notes that device `index` wrote, up to change `sequence`, now.
    func written(_ index: Int, upTo sequence: Int64) {
        let now = ContinuousClock.now
        state.withLockedValue { $0.writes[index].append((sequence, now)) }
    }

    func watch() async {
        while !Task.isCancelled {
            for (index, store) in stores.enumerated() {
                guard let oldest = try? store.sync.pendingChanges(limit: 1).changes.first?.id.sequence else { continue }
                let now = ContinuousClock.now
                state.withLockedValue { state in
                    guard let write = state.writes[index].first(where: { $0.sequence >= oldest }) else { return }
                    state.longest[index] = max(state.longest[index], now - write.at)
                }
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
