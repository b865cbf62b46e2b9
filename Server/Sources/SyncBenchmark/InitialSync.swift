import Foundation
import SQLiteStoreCore
import SQLiteStoreResults
import SQLiteStoreSync
import SyncServerHarness

/// A new device's first sync of `rows` notes, against the time to insert them locally.
///
/// Device A inserts the notes with sync on and pushes them. Then, `rounds` times, the same
/// notes are inserted as models in one transaction into an empty database without sync (the
/// local insert), and a new device, migrated and empty, runs `synchronize()`: reads the
/// account's snapshot in pages of `batchSize` rows, each applied in one transaction while the
/// next is fetched. Each round pairs the two measurements in time, so that the machine's drift
/// over the run weighs on both; the result is the median of the rounds' ratios. Each round then
/// reads the snapshot's pages alone (``SnapshotPagesRead``), to show which of the two overlapped
/// chains bounds the sync: the pages' supply or the device's applying. Last, one more new
/// device's sync is stopped once it holds half the notes (its task cancelled between two pages'
/// transactions, as a kill leaves it) and started again: it goes on from the page it reached.
@MainActor
struct InitialSync {
    let rows: Int
    let batchSize: Int
    let rounds: Int

    /// One local insert and the initial sync measured after it.
    struct Round {
        let localInsert: Duration
        let initialSync: Duration
        /// The same snapshot's pages fetched and decoded one after the other, none applied.
        let pagesAlone: Duration
        /// The CPU time used during the initial sync; `clients` is this process, the new device.
        let cpu: CPUUse
        /// The CPU time used while the pages alone were read; `clients` is this process, the reader.
        let pagesAloneCPU: CPUUse
        /// The sizes in bytes of the local insert's file and of the new device's after its sync, both closed.
        let fileSizes: (local: Int, newDevice: Int)
        /// The new device's first fetch of the notes after its sync, by title (its first screen).
        let firstScreen: Duration

        var ratio: Double { initialSync.seconds / localInsert.seconds }
    }

    /// What one run measured.
    struct Result: CustomStringConvertible {
        let rows: Int
        let batchSize: Int
        let recordedInsert: Duration
        let push: Duration
        /// The CPU time used during A's push; on Linux, `URLSession` keeps a core busy while it
        /// waits for the answer to a body over about 64 KB (or to a new connection's first
        /// request), so A's share is about the push's time.
        let pushCPU: CPUUse
        let changes: Int
        let rounds: [Round]
        let resumed: ResumedSync

        var description: String {
            let ratios = rounds.map(\.ratio).sorted()
            let median = ratios.isEmpty ? .nan : ratios[(ratios.count - 1) / 2]
            var text = """
                initial sync of \(rows) rows (\(changes) changes, pages of \(batchSize) rows): \(ratio(median)) the local insert \
                without sync, median of \(rounds.count) rounds (\(ratio(ratios.first ?? .nan))–\(ratio(ratios.last ?? .nan)))
                    the insert with sync on: \(format(recordedInsert)); A's push of them: \(format(push))\(describe(pushCPU, client: "A"))
                """
            for (index, round) in rounds.enumerated() {
                text += """

                        round \(index + 1): \(format(round.initialSync)) = \(ratio(round.ratio)) the local insert \
                    (\(format(round.localInsert)))\(describe(round.cpu, client: "the new device")); \
                    the pages alone \(format(round.pagesAlone))\(describe(round.pagesAloneCPU, client: "the reader"))
                    """
                text +=
                    "; files: the new device \(megabytes(round.fileSizes.newDevice)), the local insert \(megabytes(round.fileSizes.local))"
                text += "; then its first screen of notes: \(format(round.firstScreen))"
            }
            text += """

                    stopped at \(resumed.rowsBeforeStop) of \(rows) notes after \(format(resumed.beforeStop)), then resumed: \
                \(format(resumed.afterStop)) more (\(resumed.changesAfterStop) of \(changes) changes received again or anew), \
                \(format(resumed.beforeStop + resumed.afterStop)) in all
                """
            return text
        }

        /// `; CPU: <client> …, PostgreSQL …, the server …`, or nothing when a reading failed.
        private func describe(_ cpu: CPUUse, client: String) -> String {
            guard let postgres = cpu.postgres, let server = cpu.servers, let device = cpu.clients else { return "" }
            return "; CPU: \(client) \(format(device)), PostgreSQL \(format(postgres)), the server \(format(server))"
        }

        private func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
        private func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        private func format(_ duration: Duration) -> String { String(format: "%.3f s", duration.seconds) }
    }

    func run() async throws -> Result {
        let stores = try BenchmarkStores()
        let notes = Note.generate(count: rows, seed: 3)
        let clock = ContinuousClock()
        let a = try stores.make("device-a", syncs: true)
        let recordedInsert = try clock.measure { try stores.insert(notes, into: a) }

        let deployment = try await BenchmarkDeployment(serverCount: 1, migrations: stores.migrations)
        let token = try deployment.token(for: "initial")
        var pusher = SyncClient(store: a, server: deployment.servers[0].url, token: token)
        pusher.batchSize = batchSize
        var pushed = 0
        let postmaster = try PostgresCluster.shared.get().postmasterProcessID()
        let cpu = { CPUUse(postmaster: postmaster, servers: deployment.servers.map(\.processIdentifier)) }
        let beforePush = cpu()
        let push = try await clock.measure { pushed = try await pusher.synchronize().pushed }
        let pushCPU = cpu().since(beforePush)

        var measured: [Round] = []
        let source = Source(server: deployment.servers[0].url, token: token, changes: pushed)
        for round in 1...rounds {
            measured.append(try await measureRound(round, of: notes, in: stores, syncingFrom: source, cpu: cpu))
        }
        let resumed = try await measureResumed(in: stores, syncingFrom: source)
        return Result(
            rows: rows, batchSize: batchSize, recordedInsert: recordedInsert, push: push, pushCPU: pushCPU, changes: pushed,
            rounds: measured, resumed: resumed)
    }

    /// A new device's initial sync stopped halfway and started again.
    struct ResumedSync {
        let beforeStop: Duration
        let rowsBeforeStop: Int
        let afterStop: Duration
        let changesAfterStop: Int
    }

    /// A new device's sync, cancelled once it holds half the notes (between two pages'
    /// transactions, where a kill leaves it too: each page is applied in a transaction of its
    /// own, with how far the snapshot was read), then run again to the end and checked.
    private func measureResumed(in stores: BenchmarkStores, syncingFrom source: Source) async throws -> ResumedSync {
        let clock = ContinuousClock()
        let device = try stores.make("device-resumed", syncs: true)
        var client = SyncClient(store: device, server: source.server, token: source.token)
        client.batchSize = batchSize
        let notesHeld = { [device] in try await device.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM notes") } ?? 0 }
        let start = clock.now
        let syncing = Task { [client] in try await client.synchronize() }
        while try await notesHeld() < rows / 2 { try await Task.sleep(for: .milliseconds(5)) }
        syncing.cancel()
        _ = try? await syncing.value
        let beforeStop = clock.now - start
        let rowsBeforeStop = try await notesHeld()
        var received = 0
        let afterStop = try await clock.measure { received = try await client.synchronize().pulled }
        let count = try await notesHeld()
        guard count == rows else { throw BenchmarkFailure(description: "the resumed device holds \(count) of \(rows) notes") }
        try device.close()
        return ResumedSync(beforeStop: beforeStop, rowsBeforeStop: rowsBeforeStop, afterStop: afterStop, changesAfterStop: received)
    }

    /// Where a new device syncs from, and how many changes it must receive there.
    private struct Source {
        let server: URL
        let token: String
        let changes: Int
    }

    /// A local insert of `notes` into a new database, then a new device's initial sync, checked
    /// to have received every change and every note.
    private func measureRound(
        _ round: Int, of notes: [Note], in stores: BenchmarkStores, syncingFrom source: Source, cpu: () -> CPUUse
    ) async throws -> Round {
        let clock = ContinuousClock()
        let (localName, deviceName) = ("local-\(round)", "device-c\(round)")
        let plain = try stores.make(localName, syncs: false)
        let localInsert = try clock.measure { try stores.insert(notes, into: plain) }
        try plain.close()
        let newDevice = try stores.make(deviceName, syncs: true)
        var client = SyncClient(store: newDevice, server: source.server, token: source.token)
        client.batchSize = batchSize
        var pulled = 0
        let before = cpu()
        let initialSync = try await clock.measure { pulled = try await client.synchronize().pulled }
        let used = cpu().since(before)
        let screen = FetchedResultsController(store: newDevice, request: StoreRequest<Note>().order(Column("title").ascending))
        let firstScreen = try clock.measure { try screen.performFetch() }
        try await screen.waitUntilCurrent()  // the rest of the index read, before the store closes
        let count = try await newDevice.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM notes") }
        guard pulled == source.changes, count == rows else {
            throw BenchmarkFailure(
                description: "the new device pulled \(pulled) of \(source.changes) changes and holds \(count ?? 0) of \(rows) notes")
        }
        try newDevice.close()
        let reader = SnapshotPagesRead(server: source.server, token: source.token, schemaVersion: Note.schemaVersion, limit: batchSize)
        var rowsRead = 0
        let beforePages = cpu()
        let pagesAlone = try await clock.measure { rowsRead = try await reader.run() }
        let pagesAloneCPU = cpu().since(beforePages)
        guard rowsRead == rows else { throw BenchmarkFailure(description: "the snapshot's pages held \(rowsRead) of \(rows) notes") }
        let fileSizes = (local: try stores.fileSize(of: localName), newDevice: try stores.fileSize(of: deviceName))
        return Round(
            localInsert: localInsert, initialSync: initialSync, pagesAlone: pagesAlone, cpu: used, pagesAloneCPU: pagesAloneCPU,
            fileSizes: fileSizes, firstScreen: firstScreen)
    }
}
