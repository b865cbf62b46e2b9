import ArgumentParser
import SQLiteStoreCore

/// `store verify`: checks that the files and the ledger agree.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Exit 0 when the migration files and the ledger agree, 1 otherwise.",
        discussion: """
            They agree when every file is applied with its current text and every applied \
            migration has its file. Pending, edited, missing and unknown migrations are each \
            listed as a difference.

            Example: store verify --database app.sqlite --migrations Migrations
            """
    )

    @OptionGroup var options: StoreOptions

    func run() throws {
        let output = CommandOutput(options)
        var report = VerifyReport()
        var failure = CommandFailure.catching {
            let migrator = try options.loadMigrator()
            let status = try options.withStoreForReading(ifMissing: .useEmpty) { try migrator.status($0) }
            report.differences = status.differences.map(MigrationEntryReport.init)
            for entry in status.differences {
                output.say("\(entry.label): \(entry.state.explanation)")
            }
            if status.differences.isEmpty {
                output.say("Files and ledger agree: every migration is applied (\(status.entries.count) in all).")
            }
        }
        if failure == nil && !report.differences.isEmpty {
            failure = CommandFailure(
                status: .failed, kind: "differences",
                message: "the migration files and the ledger differ in \(report.differences.count) "
                    + (report.differences.count == 1 ? "version" : "versions"))
        }
        try output.finish("verify", body: report, failure: failure)
    }
}

/// The JSON fields of `verify`.
struct VerifyReport: Encodable {
    /// Each version where files and ledger disagree, with its state.
    var differences: [MigrationEntryReport] = []
}
