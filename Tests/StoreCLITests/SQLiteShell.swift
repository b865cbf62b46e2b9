// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import TestSupport

/// A `sqlite3` process, another writer than `store`, fed SQL through a pipe.
final class SQLiteShell: @unchecked Sendable {
    static let executable = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    private let process: SpawnedProcess
    private let input = Pipe()
    private let output = Pipe()
    private let printed: PipeLines
    /// How many of the printed lines `run` has returned (with its end markers).
    private var returned = 0
    private var marker = 0

    init(database: String) throws {
        process = try SpawnedProcess(
            URL(fileURLWithPath: Self.executable ?? "sqlite3"), ["-batch", "-bail", database],
            standardInput: .pipe(input), standardOutput: .pipe(output), standardError: .handle(FileHandle.standardError))
        printed = PipeLines(reading: output.fileHandleForReading)
        try input.fileHandleForWriting.write(contentsOf: Data(".timeout 10000\n".utf8))
    }

    /// Ends sqlite3 with `.quit`, not by the end of its input (a child spawned meanwhile by
    /// another test can hold a copy of the pipe's write end), and waits a few seconds at most
    /// for it to close the database: an unbounded `waitUntilExit()` here stalled full runs with
    /// both concurrency threads in it.
    deinit {
        try? input.fileHandleForWriting.write(contentsOf: Data(".quit\n".utf8))
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(2_000) }
    }

    /// Runs `sql` and returns the lines it printed (`list` mode: `a|b`), once sqlite3 is done
    /// with it; waits without holding a thread (sqlite3 may wait for a lock up to its timeout).
    func run(_ sql: String) async throws -> [String] {
        marker += 1
        let end = "-- end \(marker) --"
        try input.fileHandleForWriting.write(contentsOf: Data("\(sql)\n;SELECT '\(end)';\n".utf8))
        while true {
            let hasEnded = printed.hasEnded  // before the lines, so that none printed before the end is missed
            let lines = printed.lines(from: returned)
            if let index = lines.firstIndex(of: end) {
                returned += index + 1
                return Array(lines[..<index])
            }
            if hasEnded {
                throw CocoaError(.fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: "sqlite3 ended: \(lines)"])
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
#endif
