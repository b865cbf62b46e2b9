import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// The store's failure (its file overwritten, deleted or replaced) reaches every observer of
/// live results through its usual error path, within one poll of the store.
@MainActor @Suite(.timeLimit(.minutes(10))) struct StoreFailureDeliveryTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        var configuration = StoreConfiguration()
        configuration.externalChangePollInterval = .milliseconds(10)
        store = try directory.makeStore(
            configuration: configuration,
            schema: Note.schema + "INSERT INTO note(title, score) VALUES ('a', 1), ('b', 2), ('c', 3);")
    }

    private func damage(_ damage: FileDamage) throws -> Store? {
        try damage.apply(to: directory.path("test.sqlite"), touch: "UPDATE note SET score = score + 1 WHERE id = 1")
    }

    private static func storeError(_ error: FetchedResultsError?) -> StoreError? {
        guard case .store(let error) = error else { return nil }
        return error
    }

    @Test(arguments: FileDamage.allCases)
    func aControllerItsHandlersItsStreamsAndLiveResultsFail(_ damage: FileDamage) async throws {
        let controller = FetchedResultsController(store: store, request: StoreRequest<Note>().order(Column("score").ascending))
        var handled: [FetchedResultsError] = []
        var subscribed: [FetchedResultsError] = []
        controller.didFail = { handled.append($0) }
        let subscription = controller.subscribe(didFail: { subscribed.append($0) }) { _ in }
        let live = LiveResults(controller.request, in: store)
        try controller.performFetch()
        try await live.waitUntilCurrent()
        #expect(live.count == 3)
        var changes = controller.changes().makeAsyncIterator()
        let other = try self.damage(damage)

        do {
            while try await changes.next() != nil {}
            Issue.record("the changes ended without the failure")
        } catch {
            #expect(damage.matches(Self.storeError(error)))
        }
        await #expect(throws: FetchedResultsError.self) { try await controller.waitUntilCurrent() }
        #expect(damage.matches(Self.storeError(controller.failure)))
        #expect(damage.matches(Self.storeError(live.failure)))
        #expect(handled.count == 1 && damage.matches(Self.storeError(handled.first)))
        #expect(subscribed.count == 1 && damage.matches(Self.storeError(subscribed.first)))
        #expect(live.count == 3, "the results stay as last delivered")
        withExtendedLifetime((subscription, other)) {}
    }

    @Test(arguments: FileDamage.allCases)
    func aChangeWatcherEndsWithTheFailureAsItsLastEvent(_ damage: FileDamage) async throws {
        let handled = Locked<[ChangeWatcher<Note>.Event]>([])
        let handlerQueue = DispatchQueue(label: "handler")
        let watcher = ChangeWatcher<Note>(
            store: store, watching: [Note.id(2), Note.id(3)],
            handler: .queue(handlerQueue) { event in handled.withLock { $0.append(event) } })
        let events = watcher.events()
        let other = try self.damage(damage)

        var last: ChangeWatcher<Note>.Event?
        for await event in events { last = event }  // ends after the failure
        #expect(damage.matches(last?.error))
        #expect(last?.unread == [Note.id(2), Note.id(3)])
        handlerQueue.sync {}
        #expect(damage.matches(handled.withLock { $0.last?.error }))
        var later = watcher.events().makeAsyncIterator()
        #expect(damage.matches(await later.next()?.error), "a stream made after the failure holds it")
        #expect(await later.next() == nil)
        withExtendedLifetime(other) {}
    }
}
