import Foundation
import Observation
import SQLiteStore

/// The app's sync with a sync server (the repository's `Server/` package): the lists and items
/// changed here are sent, other devices' changes arrive as remote commits that the screen's
/// live results follow like local ones.
///
/// The store records every local change of the synced tables with its write, in the same
/// transaction (``TodoDatabase/open(at:)`` turns that on), so nothing needs the server to be
/// reachable: a change stays in the store's outbox until the server has stored it.
@MainActor
@Observable
public final class TodoSync {
    /// The client that pushes this store's changes and pulls other devices'.
    public let client: SyncClient
    /// What the last successful ``synchronize()`` moved.
    public private(set) var lastProgress: SyncClient.Progress?
    /// Why the last sync failed, `nil` after a success: a `SyncServerError` (`.unreachable` when
    /// no answer came), a `StoreError`, or why live syncing stopped.
    public private(set) var lastError: (any Error)?
    /// Whether live syncing (``startLive()``) runs.
    public private(set) var isLive = false
    @ObservationIgnored private var live: Task<Void, Never>?

    /// Syncs `store` (opened with ``TodoDatabase/open(at:)``) with the server at `server`, as the
    /// account `token` belongs to; each request fails as unreachable after `requestTimeout`.
    public init(store: Store, server: URL, token: String, requestTimeout: Duration = .seconds(10)) {
        var client = SyncClient(store: store, server: server, token: token)
        client.requestTimeout = requestTimeout
        self.client = client
    }

    /// How many changes made here wait to be sent, counting at most `limit`.
    public func pendingChangeCount(limit: Int = 1_000) throws -> Int {
        try client.store.sync.pendingChanges(limit: limit).changes.count
    }

    /// Sends every change made here, then receives every change the server has for this device.
    /// - Throws: `SyncServerError` when the server refuses or cannot be reached (what completed
    ///   before stays done, the rest stays in the outbox), `StoreError`, `CancellationError`.
    @discardableResult
    public func synchronize() async throws -> SyncClient.Progress {
        do {
            let progress = try await client.synchronize()
            lastProgress = progress
            lastError = nil
            return progress
        } catch {
            lastError = error
            throw error
        }
    }

    /// Starts syncing live: each local commit is sent at once and other devices' changes arrive
    /// as the server stores them; network and server failures are retried until ``stopLive()``.
    /// A failure retrying cannot fix (a refused token) ends it, in ``lastError``.
    public func startLive() {
        guard live == nil else { return }
        isLive = true
        live = Task { [client, weak self] in
            do {
                try await client.run()
            } catch is CancellationError {
            } catch {
                self?.lastError = error
            }
            self?.isLive = false
        }
    }

    /// Stops live syncing and returns once it has stopped; later writes wait in the outbox.
    public func stopLive() async {
        live?.cancel()
        await live?.value
        live = nil
        isLive = false
    }
}
