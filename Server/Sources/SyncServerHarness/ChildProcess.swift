import Foundation

/// An executable of this package built beside the tests or the benchmark, run with its output
/// in a file; killed (SIGKILL, unless it ended before) when released.
public final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let output: URL

    /// The product `name` of this package, built beside the running tests or executable
    /// (`.build/debug/name`, `.build/release/name`), or the path in the environment variable `override`.
    public static func binary(_ name: String, override: String) -> URL {
        if let path = ProcessInfo.processInfo.environment[override] { return URL(fileURLWithPath: path) }
        #if os(macOS)
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name)
        }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent(name)
    }

    /// Starts `binary` with `arguments`.
    public init(_ binary: URL, _ arguments: [String]) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("\(binary.lastPathComponent)-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
    }

    /// What it printed.
    public var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// The first line it printed that `matches` says something of, waiting up to 30 s for it.
    public func waitForLine<T>(_ matches: (Substring) -> T?) async throws -> T {
        for _ in 0..<600 {
            for line in log.split(separator: "\n") {
                if let found = matches(line) { return found }
            }
            guard process.isRunning else { throw ClusterError("\(process.executableURL?.lastPathComponent ?? "") exited: \(log)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ClusterError("\(process.executableURL?.lastPathComponent ?? "") did not say it was ready: \(log)")
    }

    /// Its process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Kills it at once, as a crash would.
    public func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: output)
    }
}
