import SQLiteStoreCore

extension SyncCoordinator {
    /// What applies sharing's answers in the open write transaction, whose writes are remote changes.
    func sharing(in db: Database) throws -> SyncShareApplier {
        db.isApplyingRemoteChanges = true
        return SyncShareApplier(tables: try syncedTables(in: db), db: db, clock: clock)
    }
}
