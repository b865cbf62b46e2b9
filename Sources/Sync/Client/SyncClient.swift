import Foundation
import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// Syncs one store with a sync server over HTTP (see <doc:SyncBetweenDevices>): pushes the
/// changes recorded here, pulls other devices' changes and applies them as remote `StoreChanges`.
///
/// ```swift
/// let client = SyncClient(store: store, server: serverURL, token: token)
/// let progress = try await client.synchronize()
/// print("sent \(progress.pushed), received \(progress.pulled)")
/// ```
///
/// Nothing is lost or applied twice across failures: a change leaves the outbox only after the
/// server answered that it stored it (a push whose answer is lost is sent again, and the server
/// stores it once), and the pull cursor, kept in the store per server, moves in the same
/// transaction that applies the pulled changes.
///
/// A database copied from another device's (a restored backup, a copied file) is refused with
/// `forkedDevice` by the server or by the client itself; the client then gives it a new device
/// id (``StoreSync/takeNewDeviceID()``) and syncs again, reading the server's snapshot.
public struct SyncClient: Sendable {
    /// The store that syncs.
    public let store: Store
    /// The server's base URL.
    public let server: URL
    /// The most changes sent in one push and asked for in one pull, and the most rows in one
    /// snapshot page (a new device's first sync).
    ///
    /// A page's cost is mostly fixed, so larger pages sync a new device faster: 5,000 rows of
    /// four short columns are about 1.4 MB of JSON and a few MB of SQLite pages in one
    /// transaction. A server answers at most its `maxPullLimit` (5,000 by default) changes or rows.
    public var batchSize = 5_000
    /// How long a live pull waits on the server for a change before asking again, in seconds.
    public var longPollSeconds = 25
    /// How long one request may take, from its first byte sent to its answer's last: a push,
    /// a pull, a snapshot page (a long poll has ``longPollSeconds`` on top). A request still
    /// unanswered then, on a stalled connection or server, fails as `.unreachable`, which
    /// ``run()`` retries after a wait; 10 seconds by default.
    public var requestTimeout: Duration = .seconds(10)
    /// What carries the requests: by default the platform's (``SyncTransport/platformDefault``).
    public let transport: any SyncTransport
    private let token: String

    /// A client for `store`, whose sync must be configured, talking to `server` with `token`
    /// over `transport`.
    public init(store: Store, server: URL, token: String, transport: any SyncTransport = .platformDefault) {
        self.store = store
        self.server = server
        self.token = token
        self.transport = transport
    }

    var endpoints: SyncServerEndpoints {
        SyncServerEndpoints(server: server, token: token, transport: transport, timeout: requestTimeout)
    }

    /// What one ``synchronize()`` moved.
    public struct Progress: Sendable, Hashable {
        /// Changes made here that the server now has.
        public var pushed = 0
        /// Other devices' changes received (applied, or older than what the store holds).
        public var pulled = 0
        /// Changes made here that the server refused (``StoreSync/refusedChanges()``): their
        /// rows now hold the server's state.
        public var refused = 0
    }

    /// Pushes every change recorded here, then pulls until the server has nothing newer.
    ///
    /// - Throws: ``SyncServerError`` when the server refuses or cannot be reached, `StoreError`
    ///   when a pulled batch cannot be applied (another schema version: nothing of it applied,
    ///   the cursor kept), `CancellationError`. A pulled change that cannot be applied here is
    ///   held (``StoreSync/heldChanges()``), not thrown: the rest of its batch applies.
    ///   What completed before the failure stays done. A `forkedDevice` refusal is not thrown
    ///   the first time: the store takes a new device id and synchronizes again. Nor is
    ///   `deviceForgotten`: the store reads the server's snapshot again, keeping its unpushed
    ///   changes, which it pushes next.
    @discardableResult
    public func synchronize() async throws -> Progress {
        do {
            return try await synchronizeOnce()
        } catch let error as SyncServerError where error.reason == .forkedDevice {
            _ = try store.sync.takeNewDeviceID()
            return try await synchronizeOnce()
        }
    }

    private func synchronizeOnce() async throws -> Progress {
        var progress = Progress()
        (progress.pushed, progress.refused) = try await pushPending()
        while true {
            let (received, more) = try await pullOnce(wait: 0)
            progress.pulled += received
            if !more { return progress }
        }
    }

    /// Syncs until the task is cancelled: pushes each local commit as it happens and waits on
    /// the server (a long poll) for other devices' changes. Transient failures (the server
    /// down, the network cut) are retried after waits that double up to 30 seconds.
    ///
    /// - Throws: `CancellationError` when cancelled; a ``SyncServerError`` that retrying cannot
    ///   fix (an unauthorized token, another schema version, a table the server does not sync)
    ///   or a `StoreError`. On `forkedDevice` the store takes a new device id and syncing
    ///   goes on; a refusal of that new id is thrown.
    public func run() async throws {
        var newDevice: String?
        while true {
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await keepPushing() }
                    group.addTask { try await keepPulling() }
                    defer { group.cancelAll() }
                    try await group.next()
                }
            } catch let error as SyncServerError where error.reason == .forkedDevice {
                // A server that refuses the id just taken too is not answered by another one.
                guard try newDevice == nil || store.sync.deviceID() != newDevice else { throw error }
                // Both tasks have ended: no push under the old id is under way.
                newDevice = try store.sync.takeNewDeviceID()
            }
        }
    }

    /// Runs `body` in a write transaction of the store; once it has committed, hands the
    /// refusals it recorded to the streams of ``StoreSync/refusals()``.
    func applying<Result: Sendable>(_ body: @escaping @Sendable (Database) throws -> Result) async throws -> Result {
        let (result, refusals) = try await store.write { db in
            db.syncCoordinator?.recordedRefusals = []
            let result = try body(db)
            return (result, db.syncCoordinator?.recordedRefusals ?? [])
        }
        store.configuration.sync?.refusalFeed.post(refusals)
        return result
    }

    // MARK: Push

    /// Sends the outbox in batches, acknowledging each after the server stored it (or refused
    /// some of its changes, whose rows then take the server's state); returns how many changes
    /// were sent and how many of them were refused.
    private func pushPending() async throws -> (pushed: Int, refused: Int) {
        var (pushed, refused) = (0, 0)
        while true {
            try Task.checkCancellation()
            let batch = try store.sync.pendingChanges(limit: batchSize)
            guard let last = batch.lastID else { return (pushed, refused) }
            var request = batch.pushRequest
            request.shared = try await store.read { db in try SyncStorage.sharedRows(of: batch.changes, in: db) }
            let answer = try await endpoints.push(request)
            if answer.refused.isEmpty && answer.rows.isEmpty && answer.shared.isEmpty {
                try store.sync.acknowledge(upTo: last)
            } else {
                try await acknowledge(upTo: last, refusing: answer)
            }
            pushed += batch.changes.count - answer.refused.count
            refused += answer.refused.count
        }
    }

    private func keepPushing() async throws {
        let tables = store.configuration.sync?.tables
        var commits = store.changes(in: tables, coalescing: true).makeAsyncIterator()
        var backoff = SyncBackoff()
        while true {
            do {
                _ = try await pushPending()
                backoff.reset()
                guard await commits.next() != nil else { throw CancellationError() }
            } catch let error as SyncServerError where error.isTransient {
                try await backoff.wait()
            }
        }
    }

    // MARK: Pull

    /// One pull and its apply: returns how many changes arrived and whether more wait.
    private func pullOnce(wait: Int) async throws -> (received: Int, more: Bool) {
        try Task.checkCancellation()
        let device = try store.sync.deviceID()
        let cursorKey = SyncStorage.cursorKeyPrefix + server.absoluteString
        let schemaKey = SyncStorage.syncedSchemaKeyPrefix + server.absoluteString
        let (cursor, version, syncedVersion, subscriptions) = try await store.read { db in
            (
                try SyncStorage.meta(cursorKey, in: db), try SyncStorage.schemaVersion(in: db), try SyncStorage.meta(schemaKey, in: db),
                try SyncStorage.wireSubscriptions(in: db)
            )
        }
        if cursor != nil, case .integer(let synced)? = syncedVersion, synced != version {
            // A migration since the last pull: the server left out what the older version did
            // not sync, which the snapshot brings now.
            try await applying { db in try SyncStorage.deleteMeta(cursorKey, in: db) }
            return (0, true)
        }
        guard let cursor else {
            guard !subscriptions.isEmpty else { return try await readSnapshot(device: device, cursorKey: cursorKey) }
            // Nothing known of what the store holds: every subscription read again, and what none covers leaves.
            try await applying { db in try SyncStorage.readSubscriptionsAgain(sweeping: true, in: db) }
            return (try await readSubscriptions(cursorKey: cursorKey, schemaKey: schemaKey, schemaVersion: version), true)
        }
        guard case .integer(let since) = cursor else {
            throw StoreError.syncChangeRefused("the stored cursor for \(server) is not an integer")
        }
        var read = 0
        if subscriptions.isEmpty {
            try await readJoinedShares()
        } else {
            read = try await readSubscriptions(cursorKey: cursorKey, schemaKey: schemaKey, schemaVersion: version)
        }
        let pulled: SyncPullResponse
        do {
            pulled = try await endpoints.pull(
                since: since, limit: batchSize, device: device, schemaVersion: version, wait: read > 0 ? 0 : wait,
                subscriptions: subscriptions)
        } catch let error as SyncServerError where error.reason == .deviceForgotten {
            // The next pull reads the snapshot again; the outbox stays, pushed after it.
            try await applying { db in try SyncStorage.deleteMeta(cursorKey, in: db) }
            return (0, true)
        }
        try await applying { db in
            try Self.checkNotCopied(device: device, passedOver: pulled.deviceSequence, in: db)
            guard let coordinator = db.syncCoordinator else { throw StoreError.misuse("sync is not configured") }
            try coordinator.apply(SyncBatch(pulled), in: db)  // with no change, tries the held ones again
            try applySharing(of: pulled, device: device, coordinator: coordinator, in: db)
            try SyncStorage.setMeta(cursorKey, .integer(pulled.cursor), in: db)
            try SyncStorage.setMeta(schemaKey, .integer(pulled.schemaVersion), in: db)
        }
        // A share joined: its rows are read at the start of the next pull, which one
        // `synchronize()` must make too, or the member would see them only at its next sync.
        let rows = subscriptions.isEmpty ? 0 : pulled.rows.count(where: { !$0.changes.isEmpty })
        return (read + pulled.changes.count + rows, pulled.more || !pulled.granted.isEmpty)
    }

    /// Refuses a pull answer (``SyncServerError`` with reason `.forkedDevice`, nothing applied)
    /// that passes over a change of this device with a higher sequence than any this database
    /// gave: the database is a copy of the device's, restored from a backup or copied, and never
    /// pulls what the original made since (a device's own changes are left out of its pulls).
    /// Read after the answer came, in the transaction that would apply it, the counter
    /// of a true device is never behind: each of its changes on the server had its sequence
    /// before it was pushed, so before the answer, whatever this device pushes meanwhile.
    private static func checkNotCopied(device: String, passedOver: Int64?, in db: Database) throws {
        guard let held = passedOver else { return }
        let assigned = try SyncStorage.highestAssignedSequence(in: db)
        guard held > assigned else { return }
        throw SyncServerError(
            reason: .forkedDevice,
            message: "the pull passed over change \(held) of device \(device), and this database gave its changes sequences up to "
                + "\(assigned) only: it is a copy of that device's (a restored backup, a copied file)")
    }

    /// Reads the server's snapshot and applies it, for a store without a cursor: the account's
    /// current state instead of every change since the beginning. Each page is applied in its
    /// own transaction, which also records how far the snapshot was read, while the next page
    /// is already being fetched and staged for the synced tables as a reader sees them (the
    /// writer stages it again if they changed). The last page sets the cursor, from which the
    /// pulls continue (a change committed while the pages were read comes with them). Returns
    /// the other devices' cells and deletes received, and `more`.
    ///
    /// A snapshot the server no longer recognizes (its cursor refused) starts again from its
    /// first page at once, which is as correct: applying a row's state twice changes nothing.
    private func readSnapshot(device: String, cursorKey: String) async throws -> (received: Int, more: Bool) {
        let (progress, version, tables) = try await store.read { [store] db in
            (
                try SyncSnapshotProgress.load(for: server, in: db), try SyncStorage.schemaVersion(in: db),
                store.configuration.sync.flatMap { try? SyncCoordinator.syncedTables(of: $0, in: db) }
            )
        }
        let first: SyncSnapshotPage
        do {
            first = try await endpoints.snapshot(schemaVersion: version, progress: progress, limit: batchSize)
        } catch let error as SyncServerError where error.reason == .malformed && progress != nil {
            try await applying { db in try SyncSnapshotProgress.clear(for: server, in: db) }
            return try await readSnapshot(device: device, cursorKey: cursorKey)
        }
        return try await withThrowingTaskGroup(of: (SyncSnapshotPage, SyncSnapshotStaging?).self) { pages in
            var received = 0
            var (page, staging) = (first, SyncSnapshotStaging?.none)
            let endpoints = self.endpoints
            while true {
                if let next = page.next {
                    let progress = SyncSnapshotProgress(cursor: page.cursor, position: next)
                    pages.addTask {
                        let page = try await endpoints.snapshot(schemaVersion: version, progress: progress, limit: batchSize)
                        return (page, tables.flatMap { try? SyncSnapshotStaging(page, tables: $0, imaging: true) })
                    }
                }
                // The shares the account is a member of are read once the snapshot is: joined before its cursor.
                let joined = page.next == nil ? try await endpoints.memberships().map(\.share) : []
                received += try await apply(page, stagedAhead: staging, cursorKey: cursorKey, device: device, joining: joined)
                guard let fetched = try await pages.next() else { return (received, true) }
                (page, staging) = fetched
            }
        }
    }

    /// Applies one snapshot page and records how far the snapshot was read (the last page: the
    /// cursor); returns the other devices' cells and deletes it held.
    private func apply(
        _ page: SyncSnapshotPage, stagedAhead: SyncSnapshotStaging?, cursorKey: String, device: String, joining shares: [String]
    ) async throws -> Int {
        try await applying { db in
            guard let coordinator = db.syncCoordinator else { throw StoreError.misuse("sync is not configured") }
            try coordinator.apply(page, stagedAhead: stagedAhead, in: db)
            if let next = page.next {
                try SyncSnapshotProgress(cursor: page.cursor, position: next).save(for: server, in: db)
            } else {
                try SyncSnapshotProgress.clear(for: server, in: db)
                try SyncStorage.setMeta(cursorKey, .integer(page.cursor), in: db)
                try SyncStorage.setMeta(SyncStorage.syncedSchemaKeyPrefix + server.absoluteString, .integer(page.schemaVersion), in: db)
                for share in shares { try SyncStorage.queueShareReading(share, server: server.absoluteString, in: db) }
                try removeLeftShares(joined: shares, coordinator: coordinator, in: db)
            }
        }
        let ownDevice = page.devices.firstIndex(of: device)
        return page.rows.reduce(0) { count, row in
            count + row.cells.count(where: { $0.stamp.device != ownDevice }) + (row.deleted.map { $0.device != ownDevice ? 1 : 0 } ?? 0)
        }
    }

    private func keepPulling() async throws {
        var backoff = SyncBackoff()
        var more = true
        while true {
            do {
                more = try await pullOnce(wait: more ? 0 : longPollSeconds).more
                backoff.reset()
            } catch let error as SyncServerError where error.isTransient {
                try await backoff.wait()
            }
        }
    }
}
