/// A read transaction held open across several jobs, from any threads: one snapshot for a
/// first page read on the caller's thread and the rest read later in the background. Its
/// reader stays out of the pool until `end()`; each `read` runs on the reader's queue.
package final class HeldRead: Sendable {
    private let reader: SerializedConnection
    private let pool: ReaderPool
    private let isEnded = Locked(false)

    /// Begins a deferred transaction on `reader`, checked out of `pool`: the snapshot is the
    /// one the first `read` sees.
    init(reader: SerializedConnection, of pool: ReaderPool) throws {
        self.reader = reader
        self.pool = pool
        do {
            try reader.sync { db in try db.begin(.deferred) }
        } catch {
            pool.checkin(reader)
            isEnded.withLock { $0 = true }
            throw error
        }
    }

    deinit { end() }

    /// Runs `body` in the held snapshot and waits for it.
    ///
    /// - Throws: What `body` throws, or `StoreError` once the read has ended or the store is closed.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        try reader.sync { db in
            guard !isEnded.withLock({ $0 }), db.isInsideTransaction else {
                throw StoreError.misuse("a held read used after it ended")
            }
            return try body(db)
        }
    }

    /// Ends the snapshot and returns the reader to the pool; later calls do nothing.
    package func end() {
        let wasEnded = isEnded.withLock { isEnded in
            defer { isEnded = true }
            return isEnded
        }
        guard !wasEnded else { return }
        // A closed store has no transaction left to end.
        try? reader.sync { db in
            db.resetActiveStatements()
            db.rollback()
        }
        pool.checkin(reader)
    }
}

extension Store {
    /// Begins a read transaction that stays open until its `end()`, for reads that share one
    /// snapshot across threads; `nil` when the store reads on its writer (a transaction held
    /// there would hold up every write) or when called inside a read or a write.
    ///
    /// - Throws: `StoreError` when the transaction cannot begin.
    package func holdRead() throws -> HeldRead? {
        guard let readers, currentRole == nil else { return nil }
        return try HeldRead(reader: Self.waitForReader(in: readers), of: readers)
    }
}
