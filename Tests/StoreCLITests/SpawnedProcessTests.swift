// Child processes: Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import Testing
import TestSupport

/// The tests' way of starting child processes, which every end-to-end test of `store` relies on.
@Suite struct SpawnedProcessTests {
    @Test func runsInTheFolderAndReportsTheExitCode() async throws {
        let directory = try TemporaryDirectory()
        let child = try SpawnedProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "pwd > here.txt; exit 7"], in: directory.url)
        #expect(try await child.exited() == 7)
        let printed = try String(contentsOfFile: directory.path("here.txt"), encoding: .utf8)
        #expect(
            URL(fileURLWithPath: printed.trimmingCharacters(in: .newlines)).resolvingSymlinksInPath()
                == directory.url.resolvingSymlinksInPath())
    }

    @Test func reportsTheSignalThatEndedIt() async throws {
        let child = try SpawnedProcess(URL(fileURLWithPath: "/bin/sleep"), ["30"])
        child.send(SIGKILL)
        #expect(try await child.exited() == SIGKILL)
        #expect(!child.isRunning)
    }

    /// A pipe this process opened and did not hand over is closed in the child: its reader sees
    /// the end of file while the child still runs. A child holding a copy would keep a test that
    /// reads another child's output to its end waiting for as long as it runs.
    @Test func inheritsNoOtherDescriptor() async throws {
        let pipe = Pipe()
        let child = try SpawnedProcess(URL(fileURLWithPath: "/bin/sleep"), ["30"])
        defer { child.send(SIGKILL) }
        try pipe.fileHandleForWriting.close()
        #expect(pipe.fileHandleForReading.readDataToEndOfFile().isEmpty)
        #expect(child.isRunning)
    }

    /// About 1,400 open descriptors, enough to fill glibc's `readdir` buffer for `/proc/self/fd`
    /// (32 KiB), as a full test run holds: children start from several threads at once, run and
    /// exit. Foundation's `Process.run()` crashed in this setting (SIGSEGV in its listing).
    @Test func startsChildrenBesideAFullDescriptorListing() async throws {
        let opened = (0..<1_400).map { _ in open("/dev/null", O_RDONLY) }
        defer { opened.filter { $0 >= 0 }.forEach { close($0) } }
        #expect(opened.allSatisfy { $0 >= 0 })
        try await withThrowingTaskGroup(of: [Int32].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var codes: [Int32] = []
                    for _ in 0..<25 {
                        codes.append(try await SpawnedProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "exit 3"]).exited())
                    }
                    return codes
                }
            }
            for try await codes in group { #expect(codes == Array(repeating: 3, count: 25)) }
        }
    }
}
#endif
