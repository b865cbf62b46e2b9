// Child processes: Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation

extension Process {
    /// Waits for the process to exit without holding a thread: the tests share a pool as
    /// wide as the machine's cores, and `waitUntilExit()` blocking one of them for a child's
    /// whole run starved every other test on a 2-core machine.
    public func exited() async throws {
        while isRunning { try await Task.sleep(for: .milliseconds(5)) }
        waitUntilExit()  // returns at once: it only collects the status
    }
}
#endif
