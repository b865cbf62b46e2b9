/// Decides, from the ledger, which migrations to run and refuses when the ledger and the
/// migrations disagree in a way that makes running them unsafe.
struct MigrationPlan {
    let migrations: [Migration]
    let options: MigrationOptions

    /// The pending migrations up to `target` (all when `nil`), in version order.
    func toApply(ledger: [LedgerEntry], target: Int?) throws -> [Migration] {
        let status = MigrationStatus(migrations: migrations, ledger: ledger)
        try refuseEditedOrMissing(status.entries)
        let pending = status.entries(.pending).filter { $0.version <= (target ?? .max) }
        let outOfOrder = pending.filter(\.isOutOfOrder)
        if !outOfOrder.isEmpty && !options.contains(.allowOutOfOrder) {
            throw MigrationError.outOfOrder(outOfOrder)
        }
        return pending.compactMap { migration(version: $0.version) }
    }

    /// The applied migrations newer than `target`, newest first.
    ///
    /// - Throws: `MigrationError.irreversible` when one of them has no down section or no
    ///   migration; `.editedOrMissing` when one was edited, unless `.allowEdited`.
    func toUndo(ledger: [LedgerEntry], target: Int) throws -> [Migration] {
        let status = MigrationStatus(migrations: migrations, ledger: ledger)
        let undone = status.entries.filter { $0.appliedChecksum != nil && $0.version > target }.reversed()
        let irreversible = undone.filter { entry in migration(version: entry.version)?.isReversible != true }
        guard irreversible.isEmpty else { throw MigrationError.irreversible(irreversible) }
        try refuseEditedOrMissing(Array(undone))
        return undone.compactMap { migration(version: $0.version) }
    }

    /// Checks that `target` names a migration, an applied version, or 0 (before every migration).
    func checkTarget(_ target: Int, ledger: [LedgerEntry]) throws {
        guard target == 0 || migration(version: target) != nil || ledger.contains(where: { $0.version == target }) else {
            throw MigrationError.unknownVersion(target)
        }
    }

    private func refuseEditedOrMissing(_ entries: [MigrationStatus.Entry]) throws {
        let changed = entries.filter { $0.state == .edited || $0.state == .missing }
        if !changed.isEmpty && !options.contains(.allowEdited) {
            throw MigrationError.editedOrMissing(changed)
        }
    }

    private func migration(version: Int) -> Migration? {
        migrations.first { $0.version == version }
    }
}
