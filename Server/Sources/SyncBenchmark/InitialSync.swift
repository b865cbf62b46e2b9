import Foundation
import SQLiteStoreCore
import SyncServerHarness

/// A new device's first sync of `rows` notes, against the time to insert them locally.
///
/// Device A inserts the notes with sync on and pushes them; a new device, migrated and empty,
/// then runs `synchronize()`: reads the account's snapshot in pages of `batchSize` rows, each
/// applied in one transaction while the next is fetched. The local insert is the same notes
/// inserted as models in one transaction into an empty database, without sync and with it
/// (recording the outbox).
@MainActor
struct InitialSync {
    let rows: Int
    let batchSize: Int

    /// What one run measured.
    struct Result: CustomStringConvertible {
        let rows: Int
        let batchSize: Int
        let localInsert: Duration
        let recordedInsert: Duration
        let push: Duration
        let initialSync: Duration
        let changes: Int
        /// The CPU time used during the initial sync; `clients` is this process, the new device.
        let cpu: CPUUse

        var description: String {
            let ratio = { (baseline: Duration) in String(format: "%.2f×", initialSync.seconds / baseline.seconds) }
            var text = """
                initial sync of \(rows) rows (\(changes) changes, pages of \(batchSize) rows): \(format(initialSync)) = \
                \(ratio(localInsert)) the local insert without sync (\(format(localInsert))), \
                \(ratio(recordedInsert)) the insert with sync on (\(format(recordedInsert)))
                    A's push of them: \(format(push))
                """
            if let postgres = cpu.postgres, let server = cpu.servers, let device = cpu.clients {
                text +=
                    "\n    CPU during the initial sync: the new device \(format(device)), PostgreSQL \(format(postgres)), the server \(format(server))"
            }
            return text
        }

        private func format(_ duration: Duration) -> String { String(format: "%.3f s", duration.seconds) }
    }

    func run() async throws -> Result {
        let stores = try BenchmarkStores()
        let notes = Note.generate(count: rows, seed: 3)
        let clock = ContinuousClock()
        let plain = try stores.make("local", syncs: false)
        let localInsert = try clock.measure { try stores.insert(notes, into: plain) }
        let a = try stores.make("device-a", syncs: true)
        let recordedInsert = try clock.measure { try stores.insert(notes, into: a) }

        let deployment = try await BenchmarkDeployment(serverCount: 1, migrations: stores.migrations)
        let token = try deployment.token(for: "initial")
        var pusher = SyncClient(store: a, server: deployment.servers[0].url, token: token)
        pusher.batchSize = batchSize
        var pushed = 0
        let push = try await clock.measure { pushed = try await pusher.synchronize().pushed }

        let newDevice = try stores.make("device-c", syncs: true)
        var client = SyncClient(store: newDevice, server: deployment.servers[0].url, token: token)
        client.batchSize = batchSize
        var pulled = 0
        let postmaster = try PostgresCluster.shared.get().postmasterProcessID()
        let cpu = { CPUUse(postmaster: postmaster, servers: deployment.servers.map(\.processIdentifier)) }
        let before = cpu()
        let initialSync = try await clock.measure { pulled = try await client.synchronize().pulled }
        let used = cpu().since(before)
        let count = try await newDevice.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM notes") }
        guard pulled == pushed, count == rows else {
            throw BenchmarkFailure(
                description: "the new device pulled \(pulled) of \(pushed) changes and holds \(count ?? 0) of \(rows) notes")
        }
        return Result(
            rows: rows, batchSize: batchSize, localInsert: localInsert, recordedInsert: recordedInsert, push: push,
            initialSync: initialSync, changes: pulled, cpu: used)
    }
}
