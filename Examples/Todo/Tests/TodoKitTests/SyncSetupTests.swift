import Foundation
import SQLiteStore
import Testing
import TodoKit

/// The store records the app's writes for sync, keeps them when the server cannot be reached,
/// and shows other devices' changes in the live list.
@MainActor
@Suite("Sync set-up")
struct SyncSetupTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// The values the batch's changes set in `table`, by row key and column.
    private static func values(in batch: SyncBatch, table: String) -> [String: [String: DatabaseValue]] {
        var rows: [String: [String: DatabaseValue]] = [:]
        for change in batch.changes where change.table == table {
            guard case .text(let key) = change.key, case .set(let column, let value) = change.operation else { continue }
            rows[key, default: [:]][column] = value
        }
        return rows
    }

    @Test("Lists and items written through the commands wait in the outbox, each value with its row's key")
    func writesAreRecorded() async throws {
        let store = try TodoDatabase.open(at: folder.path("todo.sqlite"))
        #expect(try store.sync.pendingChanges().changes.isEmpty)
        let screen = TodoScreen(store: store)
        let list = try #require(await screen.addList.execute("Groceries").output)
        let item = try #require(await screen.addItem.execute(TodoItem.Draft(listID: list.id, title: "Milk")).output)

        let batch = try store.sync.pendingChanges()
        #expect(batch.schemaVersion == 3)
        #expect(Set(batch.changes.map(\.table)) == TodoDatabase.syncedTables)
        #expect(Self.values(in: batch, table: "lists")[list.id.uuidString]?["name"] == .text("Groceries"))
        let itemValues = try #require(Self.values(in: batch, table: "items")[item.id.uuidString])
        #expect(itemValues["title"] == .text("Milk"))
        #expect(itemValues["list_id"] == .text(list.id.uuidString))
        #expect(itemValues["done"] == .integer(0))
        let sync = TodoSync(store: store, server: try #require(URL(string: "http://127.0.0.1:1")), token: "unused")
        #expect(try sync.pendingChangeCount() == batch.changes.count)
    }

    @Test("A server that cannot be reached fails the sync with SyncServerError.unreachable, and every change stays to be sent")
    func unreachableServerLosesNothing() async throws {
        let store = try TodoDatabase.open(at: folder.path("todo.sqlite"))
        let screen = TodoScreen(store: store)
        let list = try #require(await screen.addList.execute("Groceries").output)
        _ = try #require(await screen.addItem.execute(TodoItem.Draft(listID: list.id, title: "Milk")).output)
        let waiting = try store.sync.pendingChanges()
        #expect(!waiting.changes.isEmpty)

        let port = try #require(ClosedPort.find())
        let server = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let sync = TodoSync(store: store, server: server, token: "token", requestTimeout: .seconds(2))
        let error = await #expect(throws: SyncServerError.self) { try await sync.synchronize() }
        #expect(error?.reason == .unreachable, "\(String(describing: error))")
        #expect(error?.isTransient == true)
        #expect(sync.lastError as? SyncServerError == error)
        #expect(sync.lastProgress == nil)

        #expect(try store.sync.pendingChanges() == waiting, "nothing was acknowledged: the next sync sends it all")
        #expect(screen.lines == ["Groceries: Milk"], "the local rows stay")
    }

    @Test("Another device's changes, applied as one batch, reach this device's live list as one remote commit")
    func otherDevicesChangesReachTheList() async throws {
        let phone = try TodoDatabase.open(at: folder.path("phone.sqlite"))
        let laptop = try TodoDatabase.open(at: folder.path("laptop.sqlite"))
        let phoneScreen = TodoScreen(store: phone)
        let laptopScreen = TodoScreen(store: laptop)
        try await laptopScreen.waitUntilCurrent()
        let list = try #require(await phoneScreen.addList.execute("Groceries").output)
        _ = try #require(await phoneScreen.addItem.execute(TodoItem.Draft(listID: list.id, title: "Milk")).output)
        _ = try #require(await phoneScreen.addItem.execute(TodoItem.Draft(listID: list.id, title: "Bread")).output)

        // What the server does between the two devices' SyncClients, by hand.
        let batch = try phone.sync.pendingChanges()
        try laptop.sync.apply(batch)
        if let last = batch.lastID { try phone.sync.acknowledge(upTo: last) }

        try await laptopScreen.waitUntilCurrent()
        #expect(laptopScreen.lines == ["Groceries: Bread, Milk"])
        #expect(laptopScreen.lines == phoneScreen.lines)
        #expect(laptopScreen.items.lastChange == ChangeSet(sectionInserts: [0]), "one change for the whole batch")
        #expect(try laptop.sync.pendingChanges().changes.isEmpty, "remote changes are not sent back")
        #expect(try phone.sync.pendingChanges().changes.isEmpty, "acknowledged changes leave the outbox")
    }
}
