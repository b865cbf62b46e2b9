import SQLiteStoreCore

/// What `migrate` and `down` share: plan, warn, then run or (with `--dry-run`) print the plan.
struct MigrationRun {
    let options: StoreOptions
    let direction: MigrationDirection
    let target: Int?
    let dryRun: Bool
    let migrationOptions: MigrationOptions

    private var commandName: String { direction == .up ? "migrate" : "down" }

    func run() throws {
        let output = CommandOutput(options)
        var report = MigrationRunReport(dryRun: dryRun, target: target)
        let failure = CommandFailure.catching {
            let migrator = try options.loadMigrator()
            // A dry run only reads: it never creates the file nor changes its journal mode.
            let store =
                try dryRun
                ? options.openStoreForReading(ifMissing: direction == .up ? .useEmpty : .fail)
                : options.openStore(ifMissing: direction == .up ? .create : .fail)
            defer { try? store.close() }  // runs last: the files are closed before the command ends
            defer { report.currentVersion = try? migrator.status(store).currentVersion }
            let planned = try plan(migrator, store)
            output.warn(about: direction == .up ? planned : [])
            if dryRun {
                report.migrations = planned.map { MigrationStepReport(planned: $0, direction: direction) }
                describe(planned, output: output)
            } else {
                try perform(migrator, store) { step in
                    report.migrations.append(MigrationStepReport(step))
                    let verb = direction == .up ? "Applied" : "Undid"
                    output.say("\(verb) \(step.migration.location) in \(Int(step.duration / .milliseconds(1))) ms")
                }
            }
        }
        summarize(report, output: output, failed: failure != nil)
        try output.finish(commandName, body: report, failure: failure)
    }

    private func plan(_ migrator: Migrator, _ store: Store) throws -> [Migration] {
        switch direction {
        case .up: try migrator.pendingMigrations(store, to: target, options: migrationOptions)
        case .down: try migrator.migrationsToRollBack(store, to: target, options: migrationOptions)
        }
    }

    private func perform(_ migrator: Migrator, _ store: Store, progress: (MigrationStep) -> Void) throws {
        switch direction {
        case .up: try migrator.migrate(store, to: target, options: migrationOptions, progress: progress)
        case .down: try migrator.rollback(store, to: target, options: migrationOptions, progress: progress)
        }
    }

    private func describe(_ planned: [Migration], output: CommandOutput) {
        let verb = direction == .up ? "Would apply" : "Would undo"
        for migration in planned {
            output.say("\(verb) \(migration.location):")
            let sql = migration.sql(direction) ?? "(a Swift migration)"
            output.say(sql.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }.joined(separator: "\n"))
        }
    }

    private func summarize(_ report: MigrationRunReport, output: CommandOutput, failed: Bool) {
        guard !failed else { return }
        let state =
            report.currentVersion.map { "\(options.database) is at version \($0)" }
            ?? "\(options.database) has no migration applied"
        switch (report.migrations.isEmpty, dryRun) {
        case (true, _): output.say("Nothing to \(direction == .up ? "apply" : "undo"): \(state).")
        case (false, true): output.say("Dry run: nothing was changed; \(state).")
        case (false, false): output.say("\(state).")
        }
    }
}

/// The JSON fields of `migrate` and `down`.
struct MigrationRunReport: Encodable {
    /// Whether `--dry-run` was given: `migrations` were planned, not run.
    let dryRun: Bool
    /// The `--to` version, if given.
    let target: Int?
    /// The migrations applied (or undone), in the order they ran.
    var migrations: [MigrationStepReport] = []
    /// The newest applied version afterwards; absent when none is applied.
    var currentVersion: Int?
}
