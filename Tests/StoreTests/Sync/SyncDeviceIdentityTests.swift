import Foundation
import SQLiteStoreSyncProtocol
import TestSupport
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// A copy of a device's database (a restored backup, a copied file) takes a new device id.
@Suite("Sync device identity", .timeLimit(.minutes(10)))
struct SyncDeviceIdentityTests {
    @Test("A new device id stamps the changes waiting to be sent, and only those, and forgets how far each server was read")
    func takeNewDeviceID() throws {
        let fixture = try SyncFixture(stores: 1)
        let store = try fixture.open(0)
        try store.write { db in
            try db.execute(sql: "INSERT INTO lists(id, name, color) VALUES ('sent', 'a', 1), ('gone', 'g', 2)")
        }
        if let last = try store.sync.pendingChanges().lastID { try store.sync.acknowledge(upTo: last) }
        fixture.clocks[0].now += 1_000
        try store.write { db in
            try db.execute(sql: "UPDATE lists SET name = 'b' WHERE id = 'sent'")
            try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('new', 'n')")
            try db.execute(sql: "DELETE FROM lists WHERE id = 'gone'")
            try SyncStorage.setMeta("cursor http://server.test/", .integer(5), in: db)
            try SyncStorage.setMeta("snapshot cursor http://server.test/", .integer(3), in: db)
        }
        let device = try store.sync.deviceID()
        let pending = try store.sync.pendingChanges().changes

        let newDevice = try store.sync.takeNewDeviceID()

        #expect(try newDevice != device && store.sync.deviceID() == newDevice)
        let resent = try store.sync.pendingChanges().changes
        #expect(resent.map(\.id.sequence) == pending.map(\.id.sequence) && resent.allSatisfy { $0.id.device == newDevice })
        let stamps = try store.read { db in
            try db.fetchRows(
                sql: """
                    SELECT pk || '.' || col, device FROM store_sync_cells
                    UNION ALL SELECT pk || '.deleted', deleted_device FROM store_sync_rows WHERE deleted_clock IS NOT NULL
                    ORDER BY 1
                    """
            ).map { "\($0[0].stringValue ?? "")=\($0[1] == .text(newDevice) ? "new" : $0[1] == .text(device) ? "old" : "?")" }
        }
        #expect(
            stamps == [
                "gone.color=old", "gone.deleted=new", "gone.name=old", "new.color=new", "new.name=new", "sent.color=old", "sent.name=new",
            ])
        let keys = try store.read { db in
            try db.fetchRows(sql: "SELECT key FROM store_sync_meta ORDER BY key").compactMap(\.[0].stringValue)
        }
        #expect(!keys.contains { $0.hasPrefix("cursor ") || $0.hasPrefix("snapshot ") }, "\(keys)")
        #expect(keys.contains("device"), "\(keys)")
    }

    @Test("A client refused with forkedDevice takes one new device id, and throws when that one is refused too", arguments: [false, true])
    func refusedAgain(live: Bool) async throws {
        let fixture = try SyncFixture(stores: 1)
        let store = try fixture.open(0)
        try await store.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('a', 'a')") }
        let server = try #require(URL(string: "http://refusing.invalid"))
        let refusal = try JSONEncoder().encode(SyncWireError(code: .forkedDevice, message: "a copy"))
        let client = SyncClient(store: store, server: server, token: "t", transport: CannedTransport(answer: refusal, status: 409))
        let device = try store.sync.deviceID()
        let thrown = await #expect(throws: SyncServerError.self) {
            if live { try await client.run() } else { try await client.synchronize() }
        }
        #expect(thrown?.reason == .forkedDevice, "\(String(describing: thrown))")
        let newDevice = try store.sync.deviceID()
        #expect(newDevice != device)
        let pending = try store.sync.pendingChanges().changes
        #expect(pending.count == 2 && pending.allSatisfy { $0.id.device == newDevice }, "the list's cells wait, as the new device's")
    }
}
