import Foundation

/// A `sync-server` process built beside the tests (`.build/debug/sync-server`), its output in a
/// file; stopped (SIGKILL unless stopped before) when released.
final class SyncServerProcess: @unchecked Sendable {
    private let process = Process()
    private let output: URL
    /// The port it listens on, read from its first line.
    private(set) var port = 0
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["SYNC_SERVER_BINARY"] { return URL(fileURLWithPath: path) }
        #if os(macOS)
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("sync-server")
        }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("sync-server")
    }

    /// Starts `sync-server --postgres database --port port …` and waits until it listens.
    init(database: String, port: Int = 0, schemaVersion: Int64 = 1, arguments: [String] = []) async throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("sync-server-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.executableURL = Self.binary
        process.arguments =
            ["--postgres", database, "--port", String(port), "--schema-version", String(schemaVersion)] + arguments
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
        for _ in 0..<600 {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("sync-server listening on ") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                self.port = port
                return
            }
            guard process.isRunning else { throw ClusterError("sync-server exited: \(text)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ClusterError("sync-server did not start: \(log)")
    }

    /// What it printed.
    var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// Kills it at once, as a crash would.
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `sync-server add-token --postgres database --account name`: the token it printed.
    static func addToken(database: String, account: String) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = binary
        process.arguments = ["add-token", "--postgres", database, "--account", account]
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, !token.isEmpty else { throw ClusterError("add-token failed") }
        return token
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: output)
    }
}
