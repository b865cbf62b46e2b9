import SQLiteStoreCore

/// One migration applied or undone by `migrate` or `down`, or planned by `--dry-run`.
struct MigrationStepReport: Encodable {
    let version: Int
    let name: String
    let file: String?
    /// Whether it runs in a transaction (`false` for `-- store:no-transaction` files).
    let transaction: Bool
    /// How long it ran; absent in a dry run.
    let durationMs: Int?
    /// The SQL it would run; only in a dry run.
    let sql: String?

    init(_ step: MigrationStep) {
        self.init(step.migration, durationMs: Int(step.duration / .milliseconds(1)), sql: nil)
    }

    init(planned migration: Migration, direction: MigrationDirection) {
        self.init(migration, durationMs: nil, sql: migration.sql(direction) ?? "")
    }

    private init(_ migration: Migration, durationMs: Int?, sql: String?) {
        version = migration.version
        name = migration.name
        file = migration.path
        transaction = migration.usesTransaction
        self.durationMs = durationMs
        self.sql = sql
    }
}
