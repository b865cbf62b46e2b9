import Foundation
import SQLiteStore
import SyncServerHarness
import Testing

/// The README's sync section, run on a real server: the app's store with sync turned on and a
/// `SyncClient` running sends each commit, and another device of the account receives it.
@Suite("README: sync", .serialized, .timeLimit(.minutes(2)))
struct ReadmeSyncSnippetTests {
    @Test("A store with sync on and a running client sends its commits to the account's other device")
    func syncDoor() async throws {
        let fixture = try ServerFixture()
        let server = try await SharedLists.server(fixture)
        let token = try fixture.token(for: "ana")
        let serverURL = server.url
        let laptop = try SharedLists.devices(1)
        let path = laptop.folder.appendingPathComponent("phone.sqlite").path
        let plain = try Store(path: path)
        try Migrator(folder: try SharedLists.migrations().path).migrate(plain)
        try plain.close()

        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: ["lists", "items"])
        let store = try Store(path: path, configuration: configuration)
        let client = SyncClient(store: store, server: serverURL, token: token)
        let syncing = Task { try await client.run() }  // pushes each commit, long-polls for the others'; cancel to stop

        try await store.write { db in
            try db.execute(
                script:
                    "INSERT INTO lists(id, title) VALUES ('home', 'Home'); INSERT INTO items(id, list, title) VALUES ('milk', 'home', 'Milk');"
            )
        }
        // The running client pushes the commit on its own; the laptop pulls until it has it.
        let other = SyncClient(store: laptop.stores[0], server: serverURL, token: token)
        while try SharedLists.dump(laptop.stores[0], "items").isEmpty {
            try await other.synchronize()
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try SharedLists.dump(laptop.stores[0], "lists") == ["'home'|'Home'"])
        #expect(try SharedLists.dump(laptop.stores[0], "items") == ["'milk'|'home'|'Milk'"])

        syncing.cancel()
        await #expect(throws: CancellationError.self) { try await syncing.value }
    }
}
