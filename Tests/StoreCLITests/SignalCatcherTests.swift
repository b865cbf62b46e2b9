// Signals sent to the test process itself: Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import SQLiteStoreCore
@testable import StoreCLI
import Testing

/// `SignalCatcher` loses no signal, not even one sent the moment it starts, before its Dispatch
/// signal source is registered.
@Suite("signal catcher")
struct SignalCatcherTests {
    @Test("a signal sent the moment the catcher starts is reported")
    func signalAtStart() async throws {
        let caught = Locked(false)
        // SIGUSR2: nothing else in the test process uses it. Sent to the process, not a thread:
        // `raise` on a thread that blocks it would leave it pending there.
        let catcher = SignalCatcher([SIGUSR2]) { caught.withLock { $0 = true } }
        kill(getpid(), SIGUSR2)
        for _ in 0..<1_000 where !caught.current {
            try await Task.sleep(for: .milliseconds(10))  // a guard against hanging, not a measure of speed
        }
        #expect(caught.current, "the signal sent as the catcher started was lost")
        withExtendedLifetime(catcher) {}
    }
}
#endif
