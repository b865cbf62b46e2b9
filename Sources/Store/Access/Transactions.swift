/// The write transaction around a `Store.write` closure.
enum WriteTransaction {
    static func run<T>(on db: Database, cancellation: JobCancellation?, _ body: (Database) throws -> T) throws -> T {
        try db.begin(.immediate)
        defer { db.isApplyingRemoteChanges = false }
        do {
            try db.changeCapture?.transactionDidBegin()
            let value = try db.withTransactionOwnedByStore { try body(db) }
            try cancellation?.check()
            guard db.isInsideTransaction else {
                throw StoreError.misuse(
                    "the write's transaction was rolled back while the closure ran (a ROLLBACK conflict resolution, "
                        + "RAISE(ROLLBACK) or an I/O error); nothing was committed")
            }
            db.resetActiveStatements()
            if let participant = db.commitParticipant, let changes = db.changeCapture?.uncommittedChanges(), !changes.isEmpty {
                try participant.transactionWillCommit(changes, in: db)
            }
            try db.commit()
            return value
        } catch {
            db.resetActiveStatements()
            db.rollback()
            throw cancellation?.translate(error) ?? error
        }
    }
}

/// The read transaction that gives a `Store.read` closure one snapshot.
enum ReadTransaction {
    static func run<T>(on db: Database, cancellation: JobCancellation?, _ body: (Database) throws -> T) throws -> T {
        // Nested in a write or another read: join it.
        if db.isInsideTransaction { return try body(db) }
        try db.begin(.deferred)
        do {
            let value = try body(db)
            try cancellation?.check()
            db.resetActiveStatements()
            db.rollback()  // ends the snapshot; a read has nothing to commit
            return value
        } catch {
            db.resetActiveStatements()
            db.rollback()
            throw cancellation?.translate(error) ?? error
        }
    }
}

extension Database {
    /// Runs `body` with transaction control reserved to the store (see `storeOwnsTransaction`).
    func withTransactionOwnedByStore<T>(_ body: () throws -> T) rethrows -> T {
        let previous = storeOwnsTransaction
        storeOwnsTransaction = true
        defer { storeOwnsTransaction = previous }
        return try body()
    }
}
