/// Applies, undoes and reports migrations, keeping a ledger of what the database has applied
/// in the table `store_migrations(version, name, checksum, applied_at, duration_ms)`.
///
/// ```swift
/// var migrator = try Migrator(folder: folder)  // the folder of `NNNN_name.sql` files
/// try migrator.add(Migration(version: 100, name: "backfill") { db in try db.execute(sql: "UPDATE item SET done = 0 WHERE done IS NULL") })
/// try migrator.migrate(store)
/// ```
///
/// Each migration runs with its ledger row in one `BEGIN IMMEDIATE` transaction: on failure
/// the database is exactly as before that migration. Foreign keys are off around the
/// transaction and `PRAGMA foreign_key_check` runs before the commit, so table rebuilds keep
/// their children's rows and violations roll back. Concurrent migrators, in this process or
/// others, apply each migration once: the write lock is taken before the ledger is read.
public struct Migrator: Sendable {
    /// The migrations, in version order.
    public private(set) var migrations: [Migration] = []

    /// A migrator with no migrations; add them with `add(_:)`.
    public init() {}

    /// A migrator with the migrations of the `NNNN_name.sql` files in the folder at `path`.
    ///
    /// - Throws: `MigrationError` when the folder or a file cannot be read, a file is
    ///   malformed, or two files have the same version.
    public init(folder path: String) throws {
        for migration in try MigrationFolder.load(path) {
            try add(migration)
        }
    }

    /// Adds a migration.
    ///
    /// - Throws: `MigrationError.duplicateVersion` when a migration has its version already,
    ///   `.invalidMigration` for a version below 1 or a name that is not letters, digits and `_`.
    public mutating func add(_ migration: Migration) throws {
        guard migration.version > 0 else {
            throw MigrationError.invalidMigration(location: migration.location, line: nil, reason: "the version must be positive")
        }
        guard MigrationFileName.isValidName(migration.name) else {
            throw MigrationError.invalidMigration(
                location: migration.location, line: nil,
                reason: "the name \"\(migration.name)\" must be letters, digits and _")
        }
        if let existing = migrations.first(where: { $0.version == migration.version }) {
            throw MigrationError.duplicateVersion(migration.version, locations: [existing.location, migration.location])
        }
        let index = migrations.firstIndex { $0.version > migration.version } ?? migrations.endIndex
        migrations.insert(migration, at: index)
    }

    // MARK: Reporting

    /// Each version's state: applied, pending, edited, missing or unknown.
    public func status(_ store: Store) throws -> MigrationStatus {
        let ledger = try store.read { db in try Ledger.entries(in: db) }
        return MigrationStatus(migrations: migrations, ledger: ledger)
    }

    /// The migrations `migrate(store, to: target, options: options)` would apply now, in order;
    /// throws what it would throw before applying anything. Changes nothing.
    public func pendingMigrations(_ store: Store, to target: Int? = nil, options: MigrationOptions = []) throws -> [Migration] {
        try checkMigrateTarget(target)
        let ledger = try store.read { db in try Ledger.entries(in: db) }
        return try MigrationPlan(migrations: migrations, options: options).toApply(ledger: ledger, target: target)
    }

    /// The migrations `rollback(store, to: target, options: options)` would undo now, newest
    /// first; throws what it would throw before undoing anything. Changes nothing.
    public func migrationsToRollBack(_ store: Store, to target: Int? = nil, options: MigrationOptions = []) throws -> [Migration] {
        let ledger = try store.read { db in try Ledger.entries(in: db) }
        let plan = MigrationPlan(migrations: migrations, options: options)
        return try plan.toUndo(ledger: ledger, target: resolveRollbackTarget(target, ledger: ledger, plan: plan))
    }

    // MARK: Running

    /// Applies the pending migrations up to and including `target` (all when `nil`), in
    /// version order, each in its own transaction with its ledger row.
    ///
    /// Before applying anything it refuses edited or missing migrations (unless
    /// `.allowEdited`) and pending migrations older than the newest applied one (unless
    /// `.allowOutOfOrder`).
    ///
    /// - Parameters:
    ///   - store: the store to migrate.
    ///   - target: the newest version to apply; `nil` applies every pending migration.
    ///   - options: what to allow that `migrate` refuses by default.
    ///   - progress: called after each migration commits.
    /// - Returns: the migrations applied, in order; none when the database is up to date.
    /// - Throws: `MigrationError` (`.migrationFailed` when a migration failed: it was rolled
    ///   back and the migrations before it stay applied), or `StoreError` from the ledger.
    @discardableResult
    public func migrate(
        _ store: Store, to target: Int? = nil, options: MigrationOptions = [],
        progress: (MigrationStep) -> Void = { _ in }
    ) throws -> [MigrationStep] {
        try checkMigrateTarget(target)
        let plan = MigrationPlan(migrations: migrations, options: options)
        return try store.writeWithoutTransaction { db in
            try MigrationSession(db: db, direction: .up).run(
                plan: { ledger in
                    try plan.toApply(ledger: ledger, target: target)
                }, progress: progress)
        }
    }

    /// Undoes applied migrations with their down sections, newest first, each in its own
    /// transaction: the newest one when `target` is `nil`, otherwise every one newer than
    /// `target` (0 undoes all).
    ///
    /// Before undoing anything it refuses when one of them has no down section or no
    /// migration, and when one was edited (unless `.allowEdited`).
    @discardableResult
    public func rollback(
        _ store: Store, to target: Int? = nil, options: MigrationOptions = [],
        progress: (MigrationStep) -> Void = { _ in }
    ) throws -> [MigrationStep] {
        let plan = MigrationPlan(migrations: migrations, options: options)
        var resolvedTarget: Int?
        return try store.writeWithoutTransaction { db in
            try MigrationSession(db: db, direction: .down).run(
                plan: { ledger in
                    let target = try resolvedTarget ?? resolveRollbackTarget(target, ledger: ledger, plan: plan)
                    resolvedTarget = target
                    return try plan.toUndo(ledger: ledger, target: target)
                }, progress: progress)
        }
    }

    private func checkMigrateTarget(_ target: Int?) throws {
        if let target, !migrations.contains(where: { $0.version == target }) {
            throw MigrationError.unknownVersion(target)
        }
    }

    /// `target`, checked, or for `nil` the version below the newest applied one.
    private func resolveRollbackTarget(_ target: Int?, ledger: [LedgerEntry], plan: MigrationPlan) throws -> Int {
        guard let target else { return ledger.dropLast().last?.version ?? 0 }
        try plan.checkTarget(target, ledger: ledger)
        return target
    }
}
