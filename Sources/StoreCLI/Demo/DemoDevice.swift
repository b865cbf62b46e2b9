import Foundation
import SQLiteStore

/// One device of the demo's sync scene: its own database file syncing the `note` table, a
/// sync client, and a live list of the notes whose change sets the scene waits for.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class DemoDevice {
    let name: String
    let store: Store
    private let client: SyncClient
    private let list: FetchedResultsController<DemoNote>
    private var changeSets: AsyncStream<ChangeSet>.Iterator
    private let arrivals: AsyncStream<ChangeSet>.Continuation
    private var following: Task<Void, any Error>?
    private var session: Task<Void, Never>?
    /// Why live syncing stopped, when it failed.
    private var failure: (any Error)?
    /// What the first sync, made before the list was fetched, moved.
    let caughtUp: SyncClient.Progress

    /// Opens (or creates) the file at `path`, migrated by `migrator`, syncs `note` once with
    /// `server` to catch up, then fetches the list.
    init(name: String, path: String, migrator: Migrator, server: URL, token: String) async throws {
        self.name = name
        let file = try DatabaseFile(path: path, allowEmpty: true)
        let plain = try file.openStore(at: path, configuration: StoreConfiguration())
        try migrator.migrate(plain)
        try plain.close()
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: [DemoNote.tableName])
        do {
            store = try Store(path: path, configuration: configuration)
        } catch let error as StoreError {
            throw CommandFailure(
                status: .failed, kind: "sync",
                message: "the sync scene syncs the table note, which migration 0005 of the example schema makes: \(error.message)")
        }
        client = SyncClient(store: store, server: server, token: token)
        caughtUp = try await client.synchronize()
        list = FetchedResultsController(store: store, request: DemoNote.byText)
        try list.performFetch()
        let (stream, arrivals) = AsyncStream<ChangeSet>.makeStream()
        self.arrivals = arrivals
        changeSets = stream.makeAsyncIterator()
        let changes = list.changes()
        following = Task { @MainActor in
            defer { arrivals.finish() }
            for try await change in changes where !change.changeSet.isEmpty { arrivals.yield(change.changeSet) }
        }
    }

    /// The notes, by text.
    var notes: [DemoNote] { (try? list.fetchedObjects) ?? [] }

    /// Starts syncing live: each commit pushed at once, the server's changes pulled as they come.
    func goOnline() {
        session = Task { [weak self, client, arrivals] in
            do {
                try await client.run()
            } catch is CancellationError {
            } catch {
                self?.failure = error
                arrivals.finish()
            }
        }
    }

    /// Stops syncing live; writes stay in the outbox until the device is online again.
    func goOffline() async {
        session?.cancel()
        await session?.value
        session = nil
    }

    /// Writes in one transaction.
    func write(_ body: @escaping @Sendable (Database) throws -> Void) async throws {
        try await store.write(body)
    }

    /// The next change set of the device's list, local or pulled; throws after 10 s without
    /// one, or why live syncing failed.
    func nextChangeSet() async throws -> ChangeSet {
        let timeout = Task { [arrivals] in
            try await Task.sleep(for: .seconds(10))
            arrivals.finish()
        }
        defer { timeout.cancel() }
        var changeSets = self.changeSets
        let next = await changeSets.next(isolation: #isolation)
        self.changeSets = changeSets
        guard let next else {
            if let failure { throw failure }
            throw CommandFailure(status: .failed, kind: "sync", message: "device \(name)'s list did not change within 10 s")
        }
        return next
    }

    /// Stops syncing and following, and closes the database.
    func close() async {
        await goOffline()
        following?.cancel()
        try? store.close()
    }
}
