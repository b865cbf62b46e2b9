import Dispatch
import Foundation
import SQLiteStoreCore
import Testing

/// A file the store can no longer follow (overwritten, deleted, replaced) is the store's
/// failure: every observation of its changes ends with it, within one poll.
@Suite(.timeLimit(.minutes(10))) struct StoreFailureTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private static let schema = "CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER); INSERT INTO t(v) VALUES (1), (2);"
    private static let touch = "UPDATE t SET v = v + 1 WHERE id = 1"

    private func makeStore(pollingEvery interval: Duration? = .milliseconds(10)) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.externalChangePollInterval = interval
        return try directory.makeStore(configuration: configuration, schema: Self.schema)
    }

    @Test(arguments: FileDamage.allCases)
    func thePollEndsEveryObservationWithTheFailure(_ damage: FileDamage) async throws {
        let store = try makeStore()
        let changes = store.changes(in: ["t"])
        let coalesced = store.changes(coalescing: true)
        let failed = DispatchSemaphore(value: 0)
        let failure = Locked<StoreError?>(nil)
        let observation = store.observeChanges(didFail: { error in
            failure.withLock { $0 = error }
            failed.signal()
        }) { _ in }
        let other = try damage.apply(to: directory.path("test.sqlite"), touch: Self.touch)

        for await _ in changes {}  // ends once the poll finds the failure
        for await _ in coalesced {}
        #expect(waitBriefly(failed))
        #expect(damage.matches(failure.withLock { $0 }))
        #expect(damage.matches(store.failure))
        #expect(throws: StoreError.self) { try store.checkForExternalChanges() }
        withExtendedLifetime((observation, other)) {}
    }

    @Test(arguments: FileDamage.allCases)
    func anExplicitCheckThrowsTheFailureAndPublishesIt(_ damage: FileDamage) async throws {
        let store = try makeStore(pollingEvery: nil)
        let changes = store.changes()
        let other = try damage.apply(to: directory.path("test.sqlite"), touch: Self.touch)
        let error = #expect(throws: StoreError.self) { try store.checkForExternalChanges() }
        #expect(damage.matches(error))
        #expect(damage.matches(store.failure))
        for await _ in changes {}  // ended by the failure, after the changes before it
        withExtendedLifetime(other) {}
    }

    @Test func anObservationBegunAfterTheFailureEndsAtOnce() async throws {
        let store = try makeStore(pollingEvery: nil)
        try FileManager.default.removeItem(atPath: directory.path("test.sqlite"))
        #expect(throws: StoreError.self) { try store.checkForExternalChanges() }
        for await _ in store.changes() {}
        let failed = DispatchSemaphore(value: 0)
        let observation = store.observeChanges(didFail: { _ in failed.signal() }) { _ in }
        #expect(waitBriefly(failed))
        withExtendedLifetime(observation) {}
    }

    @Test func aClosedStoreHasNotFailed() throws {
        let store = try makeStore()
        try store.close()
        let error = #expect(throws: StoreError.self) { try store.checkForExternalChanges() }
        #expect(error?.code == .misuse)
        #expect(store.failure == nil)
    }
}
