import CSQLite

/// The check behind the external-change poll and `Store.checkForExternalChanges()`: publishes
/// each commit of another connection or process once, and publishes the store's failure when
/// it can no longer follow its file.
///
/// **One commit, one publication.** `PRAGMA data_version` moves when another connection
/// commits, and not only then. In WAL mode, a writer that finds the WAL wholly checkpointed
/// starts it again from its first frame, and SQLite makes that restarted WAL visible to every
/// connection when the writer writes its first page: at its commit, or, for a transaction
/// that spills its page cache, long before it. A check that runs in between sees
/// `data_version` move while nothing is committed yet, and again at the commit: two
/// publications for one commit. So a move seen without a lock is confirmed holding the write
/// lock (`BEGIN IMMEDIATE`, which waits for another writer's transaction to end, as a write
/// does), where the WAL is never halfway through someone's transaction; a write transaction of
/// the store does the same when it begins (`ChangeCapture.transactionDidBegin`). A read-only
/// store cannot take the write lock, and a check cannot get it within the busy timeout while
/// another connection writes for longer: both publish what `data_version` says, so a commit
/// may then, rarely, be published twice. A checkpoint that truncates the WAL moves
/// `data_version` too, and is published as an external change.
///
/// **Failures.** A file that was deleted or replaced since the store opened it (see
/// `Database.requireFileInPlace`), and any error of the check but the transient ones, are the
/// store's failure: published to every subscriber (`ChangeBroadcaster.fail`), then thrown.
/// Transient errors (`SQLITE_BUSY`, `SQLITE_LOCKED`, an interruption, a closed store) are only
/// thrown; the next check tries again.
struct ExternalChangeCheck: Sendable {
    let broadcaster: ChangeBroadcaster

    /// Runs the check on the writer connection, on its queue; does nothing inside a transaction.
    func run(on db: Database) throws {
        guard let capture = db.changeCapture, !db.isInsideTransaction else { return }
        do {
            try db.requireFileInPlace()
            guard try capture.dataVersionHasMoved() else { return }
            try publishCommits(capture, on: db)
        } catch let error as StoreError {
            if !Self.isTransient(error) { broadcaster.fail(error) }
            throw error
        }
    }

    /// Publishes what other connections committed, read holding the write lock when it can be had.
    private func publishCommits(_ capture: ChangeCapture, on db: Database) throws {
        do {
            try db.begin(.immediate)
        } catch let error as StoreError where error.code == .busy || error.code == .readOnly {
            return try capture.checkDataVersion()
        }
        defer { db.rollback() }
        try capture.transactionDidBegin()
    }

    /// Whether a failed check may succeed when tried again.
    private static func isTransient(_ error: StoreError) -> Bool {
        switch error.code {
        case .busy, .locked, .interrupt, .misuse: true
        default: error.code.rawValue == SQLITE_PROTOCOL || error.code.rawValue == SQLITE_NOMEM
        }
    }
}
