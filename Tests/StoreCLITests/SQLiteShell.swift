// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation

/// A `sqlite3` process, another writer than `store`, fed SQL through a pipe.
final class SQLiteShell: @unchecked Sendable {
    static let executable = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered = Data()
    private var marker = 0

    init(database: String) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable ?? "sqlite3")
        process.arguments = ["-batch", "-bail", database]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        _ = try run(".timeout 10000")
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Runs `sql` and returns the lines it printed (`list` mode: `a|b`), once sqlite3 is done with it.
    func run(_ sql: String) throws -> [String] {
        marker += 1
        let end = "-- end \(marker) --"
        try input.fileHandleForWriting.write(contentsOf: Data("\(sql)\n;SELECT '\(end)';\n".utf8))
        var lines: [String] = []
        while true {
            while let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                buffered.removeSubrange(buffered.startIndex...newline)
                if line == end { return lines }
                lines.append(line)
            }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: "sqlite3 ended: \(lines)"])
            }
            buffered.append(data)
        }
    }
}
#endif
