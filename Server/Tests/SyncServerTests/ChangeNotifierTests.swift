import Testing

@testable import StoreSyncServer

/// The long polls' wakeups: a process holds thousands of waits at once and serves millions over
/// its life, so a wait that returned must leave nothing behind.
@Suite("Long-poll wakeups", .timeLimit(.minutes(1)))
struct ChangeNotifierTests {
    @Test("A wait that returned, woken, finding the account changed, or timed out, leaves nothing behind")
    func returnedWaitsAreForgotten() async throws {
        let notifier = ChangeNotifier()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 { group.addTask { await notifier.wait(account: 1, after: 0, timeout: .seconds(60)) } }
            while await notifier.waitsHeld < 100 { try? await Task.sleep(for: .milliseconds(1)) }
            await notifier.notify(account: 1)
        }
        // The account changed since generation 0: the wait returns at once.
        await notifier.wait(account: 1, after: 0, timeout: .seconds(60))
        await notifier.wait(account: 2, after: 0, timeout: .milliseconds(1))
        #expect(await notifier.waitsHeld == 0)
    }
}
