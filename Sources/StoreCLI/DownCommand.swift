import ArgumentParser

/// `store down`: undoes migrations with their down sections.
struct DownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "down",
        abstract: "Undo the last migration, or every migration newer than --to.",
        discussion: """
            Each migration's down section runs with the removal of its ledger row in one \
            transaction. If a migration to undo has no down section (or no file), the command \
            stops before anything changes.

            Example: store down --to 2     (--to 0 undoes every migration)
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("Undo every migration newer than this version.", valueName: "version"))
    var to: Int?

    @Flag(help: "Print the SQL that would run, and change nothing.")
    var dryRun = false

    @Flag(help: "Undo edited migrations with their current down sections.")
    var allowEdited = false

    func run() throws {
        try MigrationRun(
            options: options, direction: .down, target: to, dryRun: dryRun,
            migrationOptions: StoreOptions.migrationOptions(allowEdited: allowEdited, allowOutOfOrder: false)
        )
        .run()
    }
}
