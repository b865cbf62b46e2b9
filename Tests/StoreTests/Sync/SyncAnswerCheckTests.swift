import Foundation
import SQLiteStoreSyncProtocol
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// A client holds a server to the page size it asked for and to the protocol's shape: an
/// oversized or malformed snapshot page or pull answer is a typed error, and stores nothing.
@Suite("Sync answer checks", .timeLimit(.minutes(10)))
struct SyncAnswerCheckTests {
    static func row(_ key: String) -> SyncSnapshotRow {
        SyncSnapshotRow(
            table: "lists", key: .text(key), deleted: nil,
            cells: [SyncSnapshotCell(column: "name", value: .text("list \(key)"), stamp: SyncSnapshotStamp(hlc: 1 << 20, device: 0))])
    }

    static let pages: [(String, SyncSnapshotPage)] = [
        (
            "3 rows for a limit of 2",
            SyncSnapshotPage(schemaVersion: 0, cursor: 9, devices: ["d"], rows: ["a", "b", "c"].map(row), next: nil)
        ),
        ("a row twice", SyncSnapshotPage(schemaVersion: 0, cursor: 9, devices: ["d"], rows: ["a", "a"].map(row), next: nil)),
        (
            "no rows, and more to follow",
            SyncSnapshotPage(
                schemaVersion: 0, cursor: 9, devices: ["d"], rows: [], next: SyncSnapshotPosition(table: "lists", key: "a"))
        ),
    ]

    @Test("An oversized or malformed snapshot page is an unexpected response, and the store keeps nothing of it", arguments: 0..<3)
    func refusedSnapshotPage(_ index: Int) async throws {
        let (what, page) = Self.pages[index]
        let fixture = try SyncFixture(stores: 1)
        let store = try fixture.open(0)
        let transport = CannedTransport(answer: try JSONEncoder().encode(page))
        var client = SyncClient(store: store, server: try #require(URL(string: "http://canned.invalid")), token: "t", transport: transport)
        client.batchSize = 2
        do {
            try await client.synchronize()
            Issue.record("\(what): the page was applied")
        } catch let error as SyncServerError {
            #expect(error.reason == .unexpectedResponse && error.message.contains("snapshot page"), "\(what): \(error)")
        }
        #expect(try Self.storedSyncState(store) == 0, "\(what): something was stored")
    }

    /// String's `==` takes "\u{E9}" and "e\u{301}" for one text; SQLite, the server and the
    /// sync state keep two rows under them, which one page may hold side by side.
    @Test("A page whose rows' keys differ only in their bytes is no row twice; the same bytes twice are")
    func rowsTwiceByBytes() throws {
        let page = { (keys: [String]) in SyncSnapshotPage(schemaVersion: 0, cursor: 9, devices: ["d"], rows: keys.map(Self.row), next: nil)
        }
        #expect(try page(["\u{E9}", "e\u{301}"]).checked(limit: 2, cursor: nil).rows.count == 2)
        #expect(throws: SyncServerError.self) { try page(["e\u{301}", "e\u{301}"]).checked(limit: 2, cursor: nil) }
    }

    @Test("A pull answer with more changes than asked for, or a cursor that does not move on, is refused before it is applied")
    func refusedPullAnswer() async throws {
        let fixture = try SyncFixture(stores: 1)
        let store = try fixture.open(0)
        let change = { (key: String, sequence: Int64) in
            SyncWireChange(
                device: "d", sequence: sequence, table: "lists", key: .text(key),
                operation: .set(column: "name", value: .text(key)), hlc: 1 << 20)
        }
        let answers = [
            SyncPullResponse(schemaVersion: 0, changes: (1...3).map { change("k\($0)", Int64($0)) }, cursor: 12, more: true),
            SyncPullResponse(schemaVersion: 0, changes: [change("k", 1)], cursor: 9, more: true),
        ]
        for answer in answers {
            let server = try #require(URL(string: "http://canned.invalid"))
            try await store.write { db in try SyncStorage.setMeta("cursor " + server.absoluteString, .integer(9), in: db) }
            let transport = CannedTransport(answer: try JSONEncoder().encode(answer))
            var client = SyncClient(store: store, server: server, token: "t", transport: transport)
            client.batchSize = 2
            await #expect(throws: SyncServerError(reason: .unexpectedResponse, message: "")) {
                do { try await client.synchronize() } catch let error as SyncServerError {
                    #expect(error.message.contains("pull answer"), "\(error)")
                    throw SyncServerError(reason: error.reason, message: "")
                }
            }
            let cursor = try await store.read { db in try SyncStorage.meta("cursor " + server.absoluteString, in: db) }
            #expect(cursor == .integer(9))
        }
        #expect(try Self.storedSyncState(store) == 0)
    }

    /// The rows, cells and snapshot progress a store holds.
    static func storedSyncState(_ store: Store) throws -> Int {
        try store.read { db in
            try db.fetchValue(
                Int.self,
                sql: """
                    SELECT (SELECT count(*) FROM lists) + (SELECT count(*) FROM store_sync_cells)
                        + (SELECT count(*) FROM store_sync_meta WHERE key LIKE 'snapshot %')
                    """) ?? -1
        }
    }
}
