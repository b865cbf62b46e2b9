import Foundation

/// An executable of this package built beside the tests or the benchmark, run with its output
/// in a file; killed (SIGKILL, unless it ended before) when released.
///
/// Its standard input is a pipe whose other end only this process holds: when this process
/// ends without releasing it (a crash, SIGKILL), the child's input ends, which a child that
/// watches it (`sync-server --stop-at-end-of-input`) takes as the signal to stop.
public final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let output: URL
    private let input = Pipe()

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
        process.standardInput = input
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

    /// Whether it still runs.
    public var isRunning: Bool { process.isRunning }

    /// Its process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Closes this process's end of its standard input, as this process's own end would.
    public func endInput() throws { try input.fileHandleForWriting.close() }

    /// Its exit status once it has ended, waiting up to `limit`; `nil` while it still runs.
    public func exitStatus(waitingUpTo limit: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + limit
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends it SIGTERM, unless it has ended.
    public func terminate() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGTERM)
    }

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
