import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `sync-server` process built beside the tests or the benchmark; killed when released.
public final class SyncServerProcess: @unchecked Sendable {
    private let process: ChildProcess
    /// The port it listens on, read from its first line.
    public let port: Int
    /// Its base URL.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The `sync-server` executable (`SYNC_SERVER_BINARY` names another).
    public static var binary: URL { ChildProcess.binary("sync-server", override: "SYNC_SERVER_BINARY") }

    /// Starts `sync-server --postgres database --port port --migrations migrations --tables tables
    /// --stop-at-end-of-input` and `options`, and waits until it listens and, when `ready`, until
    /// its `/ready` answers 200 (its tables exist): it stops when this process ends, however it ends.
    public init(
        database: String, port: Int = 0, migrations: URL, tables: Set<String>, options: [String] = [], ready: Bool = true
    ) async throws {
        let process = try ChildProcess(
            Self.binary,
            [
                "--postgres", database, "--port", String(port), "--migrations", migrations.path, "--tables",
                tables.sorted().joined(separator: ","), "--stop-at-end-of-input",
            ] + options)
        self.process = process
        self.port = try await process.waitForLine { line in
            line.hasPrefix("sync-server listening on ") ? line.split(separator: ":").last.flatMap { Int($0) } : nil
        }
        if ready { try await waitUntilReady() }
    }

    /// Asks `/ready` every 50 ms until it answers 200, for up to 30 s.
    private func waitUntilReady() async throws {
        let ready = url.appendingPathComponent("ready")
        for _ in 0..<600 {
            let answer = try? await URLSession.shared.data(from: ready)
            if (answer?.1 as? HTTPURLResponse)?.statusCode == 200 { return }
            guard process.isRunning else { throw ClusterError("sync-server exited: \(log)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ClusterError("sync-server did not become ready: \(log)")
    }

    /// Its process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Kills it at once, as a crash would.
    public func kill() { process.kill() }

    /// Sends it SIGTERM, as an orchestrator stopping it does: it stops gracefully.
    public func terminate() { process.terminate() }

    /// What it printed on its standard output and standard error so far.
    public var log: String { process.log }

    /// Closes this process's end of its standard input, as this process's own end would: the
    /// server stops as on SIGTERM.
    public func endInput() throws { try process.endInput() }

    /// Its exit status once it has ended, waiting up to `limit`; `nil` while it still runs.
    public func exitStatus(waitingUpTo limit: Duration) async throws -> Int32? {
        try await process.exitStatus(waitingUpTo: limit)
    }

    /// `sync-server add-token --postgres database --account name`: the token it printed;
    /// throws when it failed or printed anything on standard error.
    public static func addToken(database: String, account: String) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = binary
        process.arguments = ["add-token", "--postgres", database, "--account", account]
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("add-token-\(UUID().uuidString)")
        try Data().write(to: errorURL)
        defer { try? FileManager.default.removeItem(at: errorURL) }
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let printed = try String(contentsOf: errorURL, encoding: .utf8)
        guard process.terminationStatus == 0, !token.isEmpty else { throw ClusterError("add-token failed: \(printed)") }
        // A one-off command that works prints its token and nothing else (PostgresNIO's warning
        // of a pool used before it ran was printed here).
        guard printed.isEmpty else { throw ClusterError("add-token printed on standard error: \(printed)") }
        return token
    }
}
