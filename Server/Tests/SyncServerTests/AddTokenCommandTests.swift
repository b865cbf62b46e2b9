import Foundation
import SyncServerHarness
import Testing

/// `sync-server add-token`, the one-off command that makes an account's bearer token.
@Suite("sync-server add-token", .timeLimit(.minutes(2)))
struct AddTokenCommandTests {
    /// Runs `sync-server arguments…` to its exit.
    private func syncServer(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("add-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let process = Process()
        process.executableURL = SyncServerProcess.binary
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        process.waitUntilExit()
        return (
            process.terminationStatus, try String(contentsOf: outputURL, encoding: .utf8),
            try String(contentsOf: errorURL, encoding: .utf8)
        )
    }

    @Test("prints the token alone, each time a new one for the same account")
    func printsTheTokenAlone() async throws {
        let database = try PostgresCluster.shared.get().makeDatabase()
        let first = try await syncServer(["add-token", "--postgres", database, "--account", "alice"])
        let second = try await syncServer(["add-token", "--postgres", database, "--account", "alice"])
        for made in [first, second] {
            #expect(made.status == 0)
            #expect(made.error == "", "a one-off command that works prints nothing else")
            #expect(made.output.hasPrefix("sst_") && made.output.hasSuffix("\n"))
        }
        #expect(first.output != second.output)
    }

    @Test("fails at once with PostgreSQL's reason when the database does not exist")
    func failsWithPostgreSQLsReason() async throws {
        let database = try PostgresCluster.shared.get().makeDatabase() + "_missing"
        let failed = try await syncServer(["add-token", "--postgres", database, "--account", "alice"])
        #expect(failed.status == 1)
        #expect(failed.output == "")
        #expect(failed.error.contains("does not exist"), "\(failed.error)")
    }
}
