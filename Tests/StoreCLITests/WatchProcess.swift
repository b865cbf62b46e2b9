// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import TestSupport

/// A running `store watch` (or any long-running `store` subcommand) whose standard input
/// the test holds open and whose standard output it reads line by line as it arrives.
final class WatchProcess: @unchecked Sendable {
    private let process: SpawnedProcess
    private let input = Pipe()
    private let output = Pipe()
    private let printed: PipeLines
    private let errorURL: URL

    /// Starts `store arguments…`; with `standardInput` (such as `FileHandle.nullDevice`) instead
    /// of a pipe the test holds.
    init(_ arguments: [String], in folder: URL, standardInput: FileHandle? = nil) throws {
        errorURL = folder.appendingPathComponent(".watch-stderr-\(UUID().uuidString)")
        try Data().write(to: errorURL)
        process = try SpawnedProcess(
            StoreBinary.url, arguments, in: folder,
            standardInput: standardInput.map(SpawnedProcess.Stream.handle) ?? .pipe(input),
            standardOutput: .pipe(output),
            standardError: .handle(try FileHandle(forWritingTo: errorURL)))
        printed = PipeLines(reading: output.fileHandleForReading)
    }

    /// Kills the process when a test let go of it still running (an expectation that threw
    /// before the test waited for the exit): it would otherwise run on after the test run,
    /// an endless query at full speed.
    deinit {
        process.send(SIGKILL)
    }

    /// The complete lines printed so far, from the `index`-th on.
    func lines(from index: Int) -> [String] { printed.lines(from: index) }

    /// Waits until `condition` holds for the lines printed so far; `false` after `timeout`
    /// (a guard against hanging, not a measure of speed).
    func waitUntil(timeout: TimeInterval = 30, _ condition: ([String]) throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition(lines(from: 0)) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try condition(lines(from: 0))
    }

    /// Writes `text` to standard input.
    func send(_ text: String) throws { try input.fileHandleForWriting.write(contentsOf: Data(text.utf8)) }

    /// Closes standard input.
    func closeInput() throws { try input.fileHandleForWriting.close() }

    /// Sends a signal.
    func signal(_ number: Int32) { process.send(number) }

    /// Waits until the process catches `number` (`store watch` catches SIGINT and SIGTERM from
    /// its first moment on, see `SignalCatcher`), so that the signal sent next is handled, not
    /// fatal. Reads the process's caught signals on Linux; elsewhere waits half a second.
    func waitUntilHandling(_ number: Int32) async throws -> Bool {
        #if os(Linux)
        for _ in 0..<3_000 {
            if let mask = caughtSignals(), mask & (1 << UInt64(number - 1)) != 0 { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
        #else
        try await Task.sleep(for: .milliseconds(500))
        return true
        #endif
    }

    #if os(Linux)
    /// The signals `/proc/<pid>/status` lists as caught (`SigCgt`). Not those it ignores
    /// (`SigIgn`): a process started from a script in the background inherits SIGINT ignored.
    private func caughtSignals() -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
        return line.flatMap { UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
    }
    #endif

    /// Waits up to `timeout` for the exit (a guard against hanging, not a measure of speed);
    /// kills the process with SIGKILL and returns `false` when it is still running then.
    func waitForExit(timeout: TimeInterval = 30) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard process.isRunning else { return true }
        process.send(SIGKILL)
        return false
    }

    /// Waits for the exit; returns the exit code and standard error.
    func finish() async throws -> (exitCode: Int32, error: String) {
        let exitCode = try await process.exited()
        try await printed.ended()
        defer { try? FileManager.default.removeItem(at: errorURL) }
        return (exitCode, try String(contentsOf: errorURL, encoding: .utf8))
    }
}
#endif
