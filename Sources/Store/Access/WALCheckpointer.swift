import CSQLite
import Dispatch

/// Copies a store's WAL into its database file on a queue and a connection of its own
/// (`StoreConfiguration.checkpointsInBackground`).
///
/// SQLite's automatic checkpoint runs inside the commit that leaves the WAL 1,000 pages long or
/// more, on the writer: the commit then waits while the WAL's pages are copied into the
/// database and both files sync, and so does every write queued behind it. Here the writer's
/// WAL hook only asks for a checkpoint, and this connection runs it, passive: it waits for no
/// reader and no writer, and copies what it can while the writer goes on writing. The writer
/// starts the WAL again from its beginning when it finds it wholly copied, as it does after
/// SQLite's own checkpoints.
///
/// A writer that outpaces the copying would grow the WAL without end: past ``inlineThreshold``
/// pages, the commit checkpoints on the writer as SQLite's would. A checkpoint that fails (the
/// disk full, a lock another process holds) is left to the next commit to ask for again; the
/// WAL only stays longer meanwhile, and nothing committed depends on it.
final class WALCheckpointer: @unchecked Sendable {
    /// The WAL's length in pages from which a commit asks for a checkpoint: SQLite's default
    /// for its automatic checkpoints.
    static let threshold: Int32 = 1_000
    /// The WAL's length in pages from which a commit checkpoints on the writer itself.
    static let inlineThreshold: Int32 = 10_000

    private let path: String
    private let queue = DispatchQueue(label: "SQLiteStore.checkpointer", qos: .utility)
    /// Whether a checkpoint is queued and has not started yet.
    private let isQueued = Locked(false)
    /// Whether ``close()`` ran; touched only on `queue`.
    private var isClosed = false
    /// The WAL's length in pages when the writer last asked for a checkpoint; touched only by
    /// the writer's WAL hook, on the writer's queue.
    private var askedAt: Int32 = 0

    /// A checkpointer of the database file at `path`.
    init(path: String) {
        self.path = path
    }

    /// Replaces SQLite's automatic checkpoint on `writer` (on its queue, before its first
    /// write): its commits ask this checkpointer instead. `writer` keeps the checkpointer
    /// alive as long as its hook may call it.
    func install(on writer: Database) {
        writer.walCheckpointer = self
        sqlite3_wal_hook(
            writer.handle,
            { context, writer, schema, pages in
                context.map { Unmanaged<WALCheckpointer>.fromOpaque($0).takeUnretainedValue() }?
                    .walDidGrow(to: pages, writer: writer, schema: schema)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// After each commit of the writer, on its queue, with the WAL's length in pages: asks for
    /// a checkpoint once ``threshold`` pages came since it last asked (or since the WAL started
    /// again), so that small commits after a large one do not each ask while the WAL waits to
    /// start again.
    private func walDidGrow(to pages: Int32, writer: OpaquePointer?, schema: UnsafePointer<CChar>?) {
        if pages < askedAt { askedAt = 0 }
        guard pages - askedAt >= Self.threshold else { return }
        askedAt = pages
        if pages >= Self.inlineThreshold {
            // The checkpoint the commit would have run, as SQLite's hook runs it.
            sqlite3_wal_checkpoint_v2(writer, schema, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } else {
            queueCheckpoint()
        }
    }

    /// Queues a checkpoint, unless one is queued already that has not started.
    private func queueCheckpoint() {
        let wasQueued = isQueued.withLock { isQueued in
            defer { isQueued = true }
            return isQueued
        }
        guard !wasQueued else { return }
        queue.async { [self] in
            isQueued.withLock { $0 = false }
            if !isClosed { checkpoint() }
        }
    }

    /// A passive checkpoint on a connection opened for it alone: between checkpoints the
    /// checkpointer holds no lock on the file (a migration that leaves WAL mode needs every
    /// other connection's gone). The connection reads the schema first: one that never read
    /// the file has not opened its WAL, and SQLite before 3.41 checkpoints nothing there.
    private func checkpoint() {
        guard let db = try? Database(path: path, flags: SQLITE_OPEN_READWRITE) else { return }
        defer { db.close() }
        guard (try? db.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_schema")) != nil else { return }
        sqlite3_wal_checkpoint_v2(db.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// Waits for the checkpoints queued before the call.
    func waitForQueuedCheckpoints() {
        queue.sync {}
    }

    /// Waits for the checkpoints queued before the call; later requests do nothing.
    func close() {
        queue.sync { isClosed = true }
    }
}
