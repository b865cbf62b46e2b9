// Part of the demo's sync scene: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import Foundation
import SQLiteStoreCore
import SQLiteStoreResults
import SQLiteStoreSync

/// One person's device in the demo's sync scene: its own database file syncing the `note`
/// and `note_list` tables, a sync client with the person's token, and a live list of the
/// notes, sectioned by list, whose change sets the scene waits for.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class DemoDevice {
    let name: String
    let store: Store
    /// The device's sync client, which also shares the person's lists.
    let client: SyncClient
    private let list: FetchedResultsController<DemoNote>
    private var changeSets: AsyncStream<ChangeSet>.Iterator
    private let arrivals: AsyncStream<ChangeSet>.Continuation
    private var following: Task<Void, any Error>?
    private var session: Task<Void, Never>?
    /// Why live syncing stopped, when it failed.
    private var failure: (any Error)?
    /// What the first sync, made before the list was fetched, moved.
    let caughtUp: SyncClient.Progress

    /// Opens (or creates) the file at `path`, migrated by `migrator`, syncs `note` and
    /// `note_list` once with `server` to catch up, then fetches the list.
    init(name: String, path: String, migrator: Migrator, server: URL, token: String) async throws {
        self.name = name
        let file = try DatabaseFile(path: path, allowEmpty: true)
        let plain = try file.openStore(at: path, configuration: StoreConfiguration())
        try migrator.migrate(plain)
        try plain.close()
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: [DemoNote.tableName, "note_list"])
        do {
            store = try Store(path: path, configuration: configuration)
        } catch let error as StoreError {
            throw CommandFailure(
                status: .failed, kind: "sync",
                message: "the sync scene syncs the tables note and note_list, which migrations 0005 and 0006 of the example schema "
                    + "make: \(error.message)")
        }
        client = SyncClient(store: store, server: server, token: token)
        do {
            caughtUp = try await client.synchronize()
        } catch let error as SyncServerError where [.notSynced, .upgradeRequired].contains(error.reason) {
            try? store.close()
            throw CommandFailure(
                status: .failed, kind: "sync",
                message: "\(error); start the server with the demo's migrations and \(DemoSyncInstructions.serverOptions)")
        } catch {
            try? store.close()
            throw error
        }
        list = FetchedResultsController(store: store, request: DemoNote.byListAndText)
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

    /// The notes, by list and text.
    var notes: [DemoNote] { (try? list.fetchedObjects) ?? [] }

    /// The device's screen: each list's name, then its notes.
    var screen: [String] {
        var notes = self.notes[...]
        var lines: [String] = []
        for section in list.sections {
            lines.append("[\(section.name ?? "no list")]")
            lines += notes.prefix(section.numberOfObjects).map { "  " + $0.line }
            notes = notes.dropFirst(section.numberOfObjects)
        }
        return lines.isEmpty ? ["(no notes)"] : lines
    }

    /// The keys of the lists the device holds.
    func listIDs() throws -> [String] {
        try store.read { db in try db.fetchRows(sql: "SELECT id FROM note_list ORDER BY id").compactMap { $0["id"]?.textValue } }
    }

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

    /// Waits until the server has every change made here (the live session pushes them), for
    /// at most 10 s; throws then, or why live syncing failed.
    func waitUntilPushed() async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try !store.sync.pendingChanges(limit: 1).changes.isEmpty {
            if let failure { throw failure }
            guard ContinuousClock.now < deadline else {
                throw CommandFailure(
                    status: .failed, kind: "sync", message: "device \(name)'s changes did not reach the server within 10 s")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
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
#endif
