import ArgumentParser
import Foundation
import SQLiteStoreCore

/// `store status`: each migration's state.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each migration's state: applied, pending, edited, missing or unknown.",
        discussion: """
            applied: in the ledger with the file's checksum (when, how long). pending: not \
            applied yet ("out of order" when a newer one is applied). edited: the file changed \
            since it was applied. missing: applied, but the file is gone. unknown: applied, and \
            newer than every file. A database file that does not exist counts as empty.

            Example: store status --database app.sqlite
            """
    )

    @OptionGroup var options: StoreOptions

    func run() throws {
        let output = CommandOutput(options)
        var report = StatusReport()
        let failure = CommandFailure.catching {
            let migrator = try options.loadMigrator()
            let status = try options.withStoreForReading(ifMissing: .useEmpty) { try migrator.status($0) }
            report = StatusReport(currentVersion: status.currentVersion, migrations: status.entries.map(MigrationEntryReport.init))
            output.say(Self.table(report.migrations))
        }
        try output.finish("status", body: report, failure: failure)
    }

    private static func table(_ entries: [MigrationEntryReport]) -> String {
        let header = ["VERSION", "STATE", "NAME", "APPLIED AT", "DURATION"]
        let rows = entries.map { entry in
            [
                String(entry.version), entry.state, entry.name + (entry.outOfOrder ? " (out of order)" : ""),
                entry.appliedAt ?? "", entry.durationMs.map { "\($0) ms" } ?? "",
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { cells in
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}

/// The JSON fields of `status`.
struct StatusReport: Encodable {
    /// The newest applied version; absent when none is applied.
    var currentVersion: Int?
    /// Every version known from the files or the ledger, in version order.
    var migrations: [MigrationEntryReport] = []
}
