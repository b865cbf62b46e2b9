import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import SyncServerHarness

/// The time from a write on device A to the change set on device B: A and B hold the same
/// `rows` notes (inserted before sync began), both run `SyncClient.run()` (a push per commit,
/// a long poll) against one server on loopback, and B keeps a live list of every note by title
/// (``ChangeSetProbe``). Each iteration retitles one note on A, which moves it in B's list.
///
/// The notes edited come from a pool of 50, each edited once before the measured iterations:
/// a row's first edit after sync began sends all its cells, later ones the changed cell only.
@MainActor
struct WriteToChangeSet {
    let rows: Int
    let iterations: Int

    /// What one run measured.
    struct Result: CustomStringConvertible {
        let rows: Int
        /// From before A's write to B's change set on the main actor.
        let receipt: Percentiles
        /// A's `store.write` alone.
        let write: Percentiles

        var description: String {
            "write on A → change set on B, \(rows) rows: \(receipt)\n    A's store.write alone: \(write)"
        }
    }

    func run() async throws -> Result {
        let stores = try BenchmarkStores()
        let notes = Note.generate(count: rows, seed: 1)
        let (a, b) = (try stores.make("device-a", syncs: true, notes: notes), try stores.make("device-b", syncs: true, notes: notes))
        // A pushes to one server process, B long-polls another: the change crosses PostgreSQL's
        // LISTEN/NOTIFY between them, as behind a deployment's load balancer.
        let deployment = try await BenchmarkDeployment(serverCount: 2, migrations: stores.migrations)
        let token = try deployment.token(for: "latency")
        let probe = try ChangeSetProbe(store: b)
        guard probe.count == rows else { throw BenchmarkFailure(description: "B's list holds \(probe.count) notes, not \(rows)") }
        let sessions = zip([a, b], deployment.servers.map(\.url)).map { store, server in
            Task { try await SyncClient(store: store, server: server, token: token).run() }
        }
        var samples: [(receipt: Duration, write: Duration)] = []
        var failure: (any Error)?
        do {
            samples = try await retitleNotes(on: a, among: notes, probe: probe)
        } catch {
            failure = error
        }
        for session in sessions {
            session.cancel()
            _ = await session.result  // the stores close after their clients stopped
        }
        if let failure { throw failure }
        return Result(rows: rows, receipt: Percentiles(samples.map(\.receipt)), write: Percentiles(samples.map(\.write)))
    }

    /// Retitles each note of a pool of 50 on `a` once (unmeasured), then `iterations` times,
    /// each timed by `probe` until B's change set.
    private func retitleNotes(on a: Store, among notes: [Note], probe: ChangeSetProbe<Note>) async throws -> [(
        receipt: Duration, write: Duration
    )] {
        var random = SplitMix64(seed: 2)
        let pool = (0..<min(50, rows)).map { _ in notes[Int(random.next() % UInt64(rows))].id }
        func retitle(_ index: Int) async throws -> (receipt: Duration, write: Duration) {
            let (id, title) = (pool[index % pool.count], Note.randomTitle(using: &random))
            return try await probe.measure {
                try await a.write { db in try db.execute(sql: "UPDATE notes SET title = ? WHERE id = ?", arguments: [title, id]) }
            }
        }
        for index in pool.indices { _ = try await retitle(index) }
        var samples: [(receipt: Duration, write: Duration)] = []
        for index in 0..<iterations { samples.append(try await retitle(index)) }
        return samples
    }
}
