// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import Testing

/// Every error `store` prints is one line of standard error, in text and in `--json` mode:
/// line breaks in what it echoes (SQL, lists of migrations) are escaped.
@Suite("store prints each error on one line")
struct OneLineErrorTests {
    /// The lines of standard error, split wherever a reader might split them.
    private func lines(_ result: StoreResult) -> [Substring] { result.error.split(whereSeparator: \.isNewline) }

    @Test("a failed migration echoing a statement of several lines", arguments: [false, true])
    func failedMigration(json: Bool) async throws {
        let project = try CLIProject(extra: ["0005_bad.sql": "CREATE TABLE fine(x);\nINSERT INTO\n  nowhere\nVALUES (1);\n"])
        let result = try await StoreBinary.start(["migrate"] + (json ? ["--json"] : []), in: project.folder).finish()
        #expect(result.exitCode == 1, "\(result)")
        if json {
            #expect(lines(result).isEmpty, "\(result)")
            #expect(try result.json()["error"] != nil)
        } else {
            #expect(lines(result).count == 1, "\(result)")
            #expect(
                result.error.contains("Migrations/0005_bad.sql:2:") && result.error.contains("INSERT INTO\\n  nowhere\\nVALUES (1)"),
                "\(result)")
        }
    }

    @Test("a refusal listing edited migrations")
    func refusalList() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate").exitCode == 0)
        try project.write("0001_create_list.sql", try project.read("0001_create_list.sql") + "\n-- edited\n")
        try project.write("0002_create_item.sql", try project.read("0002_create_item.sql") + "\n-- edited\n")
        let result = try await project.store("migrate")
        #expect(result.exitCode == 1, "\(result)")
        #expect(lines(result).count == 1, "\(result)")
        #expect(result.error.contains("0001_create_list.sql") && result.error.contains("0002_create_item.sql"), "\(result)")
    }

    @Test(
        "a usage error, in text and --json mode", arguments: [["migrate", "--bogus"], ["migrate", "--to", "x", "--json"], ["frobnicate"]])
    func usage(arguments: [String]) async throws {
        let project = try CLIProject()
        let result = try await StoreBinary.start(arguments, in: project.folder).finish()
        #expect(result.exitCode == 2, "\(result)")
        #expect(lines(result).count == 1 && result.error.hasPrefix("error: "), "\(result)")
    }
}
#endif
