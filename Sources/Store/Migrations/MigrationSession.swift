import CSQLite

/// Runs migrations one at a time on a store's writer connection, outside `Store.write`,
/// because the migrator needs what a write transaction cannot give:
///
/// - foreign keys are turned off *outside* the transaction (`PRAGMA foreign_keys` does
///   nothing inside one), so that dropping a table in SQLite's 12-step rebuild does not
///   cascade to its children; `PRAGMA foreign_key_check` runs before each commit instead,
///   and a violation rolls the migration back;
/// - each step takes the write lock (`BEGIN IMMEDIATE`) *before* reading the ledger and
///   deciding what to run, so that concurrent migrators never run a migration twice;
/// - `-- store:no-transaction` migrations run between transactions, with foreign keys as
///   the store's configuration sets them.
struct MigrationSession {
    let db: Database
    let direction: MigrationDirection

    /// Runs the first migration of `plan` under the write lock until the plan is empty;
    /// `plan` reads the ledger as it is once the lock is held.
    func run(plan: ([LedgerEntry]) throws -> [Migration], progress: (MigrationStep) -> Void) throws -> [MigrationStep] {
        let foreignKeysWereOn = try db.fetchValue(Bool.self, sql: "PRAGMA foreign_keys") ?? false
        try setForeignKeys(false)
        var steps: [MigrationStep] = []
        do {
            while let step = try runNext(plan: plan, foreignKeysOn: foreignKeysWereOn) {
                steps.append(step)
                progress(step)
            }
        } catch {
            try? setForeignKeys(foreignKeysWereOn)
            throw error
        }
        try setForeignKeys(foreignKeysWereOn)
        return steps
    }

    private func runNext(plan: ([LedgerEntry]) throws -> [Migration], foreignKeysOn: Bool) throws -> MigrationStep? {
        try db.begin(.immediate)
        do {
            if direction == .up { try Ledger.create(in: db) }
            guard let migration = try plan(Ledger.entries(in: db)).first else {
                try db.commit()
                return nil
            }
            let duration: Duration
            if migration.usesTransaction {
                duration = try ContinuousClock().measure {
                    // BEGIN, COMMIT, END and ROLLBACK in any spelling are refused before they run.
                    try db.withTransactionOwnedByStore { try run(migration) }
                    try checkForeignKeys(after: migration)
                }
                try record(migration, duration: duration)
                try db.commit()
            } else {
                try db.commit()
                duration = try runOutsideTransaction(migration, foreignKeysOn: foreignKeysOn)
            }
            return MigrationStep(migration: migration, direction: direction, duration: duration)
        } catch {
            db.rollback()
            throw error
        }
    }

    /// Runs a `-- store:no-transaction` migration, then records it under the lock unless a
    /// concurrent migrator recorded it meanwhile.
    private func runOutsideTransaction(_ migration: Migration, foreignKeysOn: Bool) throws -> Duration {
        try setForeignKeys(foreignKeysOn)
        let duration = try ContinuousClock().measure { try run(migration) }
        try setForeignKeys(false)
        try db.begin(.immediate)
        let isRecorded = try Ledger.entries(in: db).contains { $0.version == migration.version }
        let needsRecord = direction == .up ? !isRecorded : isRecorded
        if needsRecord { try record(migration, duration: duration) }
        try db.commit()
        return duration
    }

    private func record(_ migration: Migration, duration: Duration) throws {
        switch direction {
        case .up: try Ledger.recordApplied(migration, duration: duration, in: db)
        case .down: try Ledger.recordUndone(migration.version, in: db)
        }
    }

    /// Runs the migration's SQL or closure, turning any error into a `MigrationFailure`.
    private func run(_ migration: Migration) throws {
        switch migration.body(direction) {
        case .sql(let script)?:
            // One statement at a time, as the script is read: a large file is never held split.
            try script.forEachStatement { statement in
                do {
                    try db.execute(script: statement.sql)
                } catch {
                    throw failure(migration, line: statement.line, statement: statement.sql, error)
                }
            }
        case .swift(let closure)?:
            do {
                try closure(db)
            } catch {
                throw failure(migration, line: nil, statement: nil, error)
            }
            if migration.usesTransaction && !db.isInsideTransaction {
                throw failure(
                    migration, line: nil, statement: nil,
                    StoreError.misuse("the migration ended the transaction it runs in; its changes were committed but not recorded"))
            }
        case nil:
            throw failure(migration, line: nil, statement: nil, StoreError.misuse("the migration has no down section"))
        }
    }

    /// Rolls the migration back, by throwing, when it left rows that break a foreign key.
    private func checkForeignKeys(after migration: Migration) throws {
        let violations = try db.fetchRows(sql: "PRAGMA foreign_key_check")
        guard let first = violations.first else { return }
        let table = (try? first.decode(String.self, column: "table")) ?? "?"
        let parent = (try? first.decode(String.self, column: "parent")) ?? "?"
        let row = (try? first.decode(Int64.self, column: "rowid")).map { "row \($0)" } ?? "a row"
        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
        let error = StoreError(
            code: .constraint, extendedCode: sqliteConstraintForeignKey,
            message: "FOREIGN KEY constraint failed: \(row) of \(table) refers to a missing row of \(parent)\(more)",
            sql: "PRAGMA foreign_key_check")
        throw failure(migration, line: nil, statement: "PRAGMA foreign_key_check", error)
    }

    /// `SQLITE_CONSTRAINT_FOREIGNKEY`, a C macro Swift does not import.
    private var sqliteConstraintForeignKey: Int32 { SQLITE_CONSTRAINT | (3 << 8) }

    private func failure(_ migration: Migration, line: Int?, statement: String?, _ error: any Error) -> MigrationError {
        .migrationFailed(
            MigrationFailure(
                version: migration.version, name: migration.name, location: migration.location,
                direction: direction, line: line, statement: statement,
                wasRolledBack: migration.usesTransaction, error: error))
    }

    private func setForeignKeys(_ on: Bool) throws {
        try db.execute(sql: on ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
    }
}
