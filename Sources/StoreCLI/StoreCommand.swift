import ArgumentParser
import Foundation

/// The `store` command: migrations, live queries and the demo.
@main
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Migrate, inspect and watch SQLiteStore databases.",
        discussion: """
            Every subcommand takes --database PATH (default store.sqlite), --migrations DIR \
            (default Migrations) and --json (one JSON document on standard output instead of text).
            Errors and warnings go to standard error, one line each: line breaks and other control \
            characters in what they echo are escaped as in a JSON string (\\n, \\u2028).

            \(ExitStatus.documentation)
            """,
        // One file per subcommand; add new ones here.
        subcommands: [
            MigrateCommand.self,
            StatusCommand.self,
            DownCommand.self,
            CreateCommand.self,
            VerifyCommand.self,
            SchemaCommand.self,
            WatchCommand.self,
            SyncCommand.self,
            DemoCommand.self,
        ]
    )

    /// Runs the subcommand; usage errors exit with 2 (ArgumentParser's default is 64).
    static func main() async {
        if let invalid = ArgumentEncoding.firstInvalidArgument() {
            exitWithUsageError(
                ValidationError(
                    "argument \(invalid.position) ('\(invalid.text)') is not valid UTF-8; store takes its paths and values as UTF-8 text, rename the file"
                ))
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            exitWithUsageError(error)
        }
    }

    private static func exitWithUsageError(_ error: any Error) -> Never {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.contains("--json") {
            let document = JSONDocument(
                command: arguments.first { !$0.hasPrefix("-") } ?? "store",
                exitCode: ExitStatus.usage.rawValue, database: "", migrationsFolder: "",
                warnings: [], error: ErrorReport(kind: "usage", message: message(for: error)),
                body: [String: String]())
            if let json = try? CommandOutput.json(document) { print(json) }
        }
        // One line, as every error: the usage is one `--help` away.
        CommandOutput.printError("error: \(message(for: error)) (see store --help)")
        Foundation.exit(ExitStatus.usage.rawValue)
    }
}
