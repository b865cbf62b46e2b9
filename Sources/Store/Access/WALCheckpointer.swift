import CSQLite
import Dispatch

/// Checkpoints a WAL-mode store's write-ahead log on a queue of its own, so that the writer's
/// commits do not wait for a checkpoint's copying and `fsync`s.
///
/// SQLite checkpoints on the committing connection once the log holds `wal_autocheckpoint`
/// pages (1000 by default): the commit that passes it waits until every page is copied into
/// the database file and both files are synced, tens of milliseconds on common disks. The
/// checkpointer takes that over through the writer's WAL hook: past the same threshold, it runs
/// a passive checkpoint on a connection of its own, beside the writer's next transaction. Should
/// the log grow past ``backPressureFactor`` times the threshold all the same (writes that come
/// faster than the checkpoints), the writer checkpoints itself, as SQLite would, so that the
/// log stays bounded. What a commit guarantees is unchanged: with `synchronous = NORMAL` a
/// commit becomes durable when a checkpoint syncs it, on whichever connection that runs.
///
/// The connection is opened for each checkpoint and closed after it, so that between
/// checkpoints nothing but the store's own connections holds the file (switching the journal
/// mode away from WAL needs the file to itself).
///
/// A writer whose `wal_autocheckpoint` is 0 (set in `prepareDatabase`) gets no checkpointer:
/// its checkpoints are the app's. Setting `wal_autocheckpoint` on the writer later gives the
/// checkpoints back to the writer.
final class WALCheckpointer: Sendable {
    /// How many times its threshold the log may hold before the writer checkpoints itself.
    static let backPressureFactor: Int32 = 4

    /// The log's size in pages from which a checkpoint is queued.
    let threshold: Int32
    /// The log's size in pages from which the writer checkpoints itself.
    private let backPressureLimit: Int32
    private let openConnection: @Sendable () throws -> Database
    private let queue = DispatchQueue(label: "SQLiteStore.checkpointer")
    private let state = Locked(State())

    private struct State {
        /// A checkpoint is queued and not started: commits meanwhile queue no other.
        var isQueued = false
        /// `close()` ran: queued checkpoints do nothing.
        var isClosed = false
    }

    /// Installs a checkpointer on `writer`, with connections that `openConnection` opens, when
    /// the writer is in WAL mode and checkpoints automatically; `nil` otherwise. The writer
    /// keeps the checkpointer as long as its hook may call it.
    static func install(on writer: Database, openConnection: @escaping @Sendable () throws -> Database) throws -> WALCheckpointer? {
        let mode = try writer.fetchValue(String.self, sql: "PRAGMA journal_mode")
        guard mode?.lowercased() == "wal", let threshold = try writer.fetchValue(Int32.self, sql: "PRAGMA wal_autocheckpoint"),
            threshold > 0
        else { return nil }
        let checkpointer = WALCheckpointer(threshold: threshold, openConnection: openConnection)
        writer.walHookOwner = checkpointer
        sqlite3_wal_hook(
            writer.handle,
            { context, writer, _, pages in
                if let context, let writer {
                    Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().logGrew(to: pages, on: writer)
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(checkpointer).toOpaque())
        return checkpointer
    }

    private init(threshold: Int32, openConnection: @escaping @Sendable () throws -> Database) {
        self.threshold = threshold
        let (limit, overflow) = threshold.multipliedReportingOverflow(by: Self.backPressureFactor)
        self.backPressureLimit = overflow ? .max : limit
        self.openConnection = openConnection
    }

    /// Called by the writer after each commit, with the log's size in pages. A checkpoint that
    /// fails (a disk error, no file descriptor left) leaves its pages in the log for the next,
    /// as SQLite's own automatic checkpoint does.
    private func logGrew(to pages: Int32, on writer: OpaquePointer) {
        if pages >= backPressureLimit {
            sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } else if pages >= threshold {
            queueCheckpoint()
        }
    }

    /// Queues a passive checkpoint unless one is queued already.
    private func queueCheckpoint() {
        let wasQueued = state.withLock { state in
            defer { state.isQueued = true }
            return state.isQueued
        }
        guard !wasQueued else { return }
        queue.async { [self] in
            let isClosed = state.withLock { state in
                state.isQueued = false
                return state.isClosed
            }
            // The connection reads the file first: one that never did does not know it is in WAL mode.
            guard !isClosed, let db = try? openConnection() else { return }
            sqlite3_wal_checkpoint_v2(db.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            db.close()
        }
    }

    /// Runs `body` while no checkpoint can start (one queued meanwhile runs after it), once the
    /// checkpoints queued before have run: for tests that tell the writer's checkpoints from
    /// the checkpointer's.
    func whileHeld<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync(execute: body)
    }

    /// Waits for a running checkpoint; the checkpoints queued later do nothing.
    func close() {
        queue.sync { state.withLock { $0.isClosed = true } }
    }
}
