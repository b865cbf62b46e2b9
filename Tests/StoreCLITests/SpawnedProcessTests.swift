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
    /// (32 KiB), as a full test run holds: children start from 8 threads at once, each allocating
    /// and freeing memory between starts, and run and exit. With Foundation's `Process` in
    /// place of `SpawnedProcess`, this test crashed the test process (SIGSEGV in `Process.run()`)
    /// in five runs out of six.
    @Test func startsChildrenBesideAFullDescriptorListing() async throws {
        let opened = (0..<1_400).map { _ in open("/dev/null", O_RDONLY) }
        defer { opened.filter { $0 >= 0 }.forEach { close($0) } }
        #expect(opened.allSatisfy { $0 >= 0 })
        let codes = await withTaskGroup(of: [Int32].self) { group in
            for _ in 0..<8 {
                group.addTask { await Self.onThreadOfItsOwn(Self.startChildren) }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(codes == Array(repeating: 3, count: 8 * 200))
    }

    /// Starts 200 children that exit with 3, one after the other, each after allocating a
    /// different number of blocks (which moves where the C library's listing buffer lands);
    /// returns their exit codes.
    private static func startChildren() -> [Int32] {
        (0..<200).map { round in
            let blocks = (0..<(round * 7) % 50).map { malloc(1_000 + $0 * 512) }
            defer { blocks.forEach { free($0) } }
            let child = try? SpawnedProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "exit 3"])
            return child?.waitUntilExit() ?? -1
        }
    }

    private static func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
#endif
