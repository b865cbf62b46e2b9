import ArgumentParser

/// `store migrate`: applies pending migrations.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending migrations in version order.",
        discussion: """
            Each migration runs with its ledger row in one BEGIN IMMEDIATE transaction, so a \
            failing migration leaves the database as it was before it, and concurrent runs \
            never apply a migration twice. Foreign keys are off around the transaction and \
            PRAGMA foreign_key_check runs before the commit. Edited or missing migrations, and \
            pending ones older than the newest applied one, are refused before anything runs.

            Example: store migrate --database app.sqlite --to 3
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("Apply migrations up to and including this version.", valueName: "version"))
    var to: Int?

    @Flag(help: "Print the SQL that would run, and change nothing.")
    var dryRun = false

    @Flag(help: "Run even though applied migrations were edited or are missing.")
    var allowEdited = false

    @Flag(help: "Apply pending migrations older than the newest applied one.")
    var allowOutOfOrder = false

    func run() throws {
        try MigrationRun(
            options: options, direction: .up, target: to, dryRun: dryRun,
            migrationOptions: StoreOptions.migrationOptions(allowEdited: allowEdited, allowOutOfOrder: allowOutOfOrder)
        )
        .run()
    }
}
