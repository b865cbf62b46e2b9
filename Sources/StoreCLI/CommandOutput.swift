import ArgumentParser
import Foundation
import SQLiteStoreCore

/// Where a subcommand's results go: text as they happen (results on standard output,
/// warnings and errors on standard error), or with `--json` one JSON document on standard
/// output when the subcommand ends.
final class CommandOutput {
    private let options: StoreOptions
    private var warnings: [WarningReport] = []

    init(_ options: StoreOptions) { self.options = options }

    /// Prints a line of results, in text mode.
    func say(_ text: String) {
        if !options.json { print(text) }
    }

    /// Reports the warnings of migrations about to run.
    func warn(about migrations: [Migration]) {
        for migration in migrations {
            for warning in migration.warnings {
                let report = WarningReport(file: migration.location, line: warning.line, message: warning.message)
                warnings.append(report)
                if !options.json { Self.printError("warning: \(migration.location):\(warning.line): \(warning.message)") }
            }
        }
    }

    /// Prints the JSON document, or the failure as text, and exits with the failure's status.
    func finish<Body: Encodable>(_ command: String, body: Body, failure: CommandFailure?) throws {
        let status = failure?.status ?? .success
        if options.json {
            let document = JSONDocument(
                command: command, exitCode: status.rawValue, database: options.database,
                migrationsFolder: options.migrations, warnings: warnings, error: failure?.report, body: body)
            print(try Self.json(document))
        } else if let failure {
            Self.printError("error: \(failure.report.message)")
        }
        if status != .success { throw ExitCode(status.rawValue) }
    }

    /// Prints an error or a warning on standard error, as one line (see `EscapedText`).
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((EscapedText.escaping(text, quotes: false) + "\n").utf8))
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A warning in a JSON document.
struct WarningReport: Encodable {
    let file: String?
    let line: Int?
    let message: String
}

/// The JSON document of a subcommand: the fields every subcommand has, and the subcommand's own.
struct JSONDocument<Body: Encodable>: Encodable {
    let command: String
    let exitCode: Int32
    let database: String
    let migrationsFolder: String
    let warnings: [WarningReport]
    let error: ErrorReport?
    let body: Body

    private enum Key: String, CodingKey {
        case command, ok, exitCode, database, migrationsFolder, warnings, error
    }

    func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(command, forKey: .command)
        try container.encode(exitCode == ExitStatus.success.rawValue, forKey: .ok)
        try container.encode(exitCode, forKey: .exitCode)
        try container.encode(database, forKey: .database)
        try container.encode(migrationsFolder, forKey: .migrationsFolder)
        try container.encode(warnings, forKey: .warnings)
        try container.encodeIfPresent(error, forKey: .error)
    }
}
