import Foundation
import SQLiteStore
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

/// Sharing between accounts on a real server and PostgreSQL: a list shared as writer or
/// reader reaches the member's devices with its items and their tags; the server refuses a
/// change the account may not make, and the device takes the server's state; rows moved into
/// or out of a share appear or go; a revocation removes the list from every device of the
/// member, offline ones included, and nothing of it is deleted on the server.
@Suite("Sharing", .serialized, .timeLimit(.minutes(2)))
struct SharingTests {
    let fixture: ServerFixture
    let server: SyncServerProcess
    let alice: String
    let bob: String
    let devices: SyncedStores

    init() async throws {
        fixture = try ServerFixture()
        server = try await SharedLists.server(fixture)
        alice = try fixture.token(for: "alice")
        bob = try fixture.token(for: "bob")
        // 0: alice's device; 1 and 2: bob's.
        devices = try SharedLists.devices(3)
    }

    private func client(_ index: Int) -> SyncClient {
        SyncClient(store: devices.stores[index], server: server.url, token: index == 0 ? alice : bob)
    }

    @discardableResult
    private func sync(_ index: Int) async throws -> SyncClient.Progress { try await client(index).synchronize() }

    /// Alice's lists: `shared` with two items and a tag, `private` with one item.
    private func aliceWritesLists() async throws {
        try await devices.stores[0].write { db in
            try db.execute(
                script: """
                    INSERT INTO lists(id, title) VALUES ('shared', 'Groceries'), ('private', 'Gifts');
                    INSERT INTO items(id, list, title) VALUES ('milk', 'shared', 'Milk'), ('eggs', 'shared', 'Eggs'),
                        ('ring', 'private', 'Ring');
                    INSERT INTO tags(id, item, label) VALUES ('t1', 'milk', 'dairy');
                    """)
        }
        try await sync(0)
    }

    @Test("A memberships answer lost to a 404 (a proxy at the wrong address) fails the sync and removes no share")
    func membershipsNotFound() async throws {
        try await aliceWritesLists()
        _ = try await client(0).share(table: "lists", key: .text("shared"), with: "bob", as: .writer)
        try await sync(1)
        #expect(try SharedLists.keys(devices.stores[1], "lists") == ["shared"])
        // Its next sync reads the snapshot again, then asks which shares it may keep.
        _ = try devices.stores[1].sync.takeNewDeviceID()
        let lost = SyncClient(store: devices.stores[1], server: server.url, token: bob, transport: MembershipsNotFound())
        var commits = devices.stores[1].changes(in: SharedLists.tables).makeAsyncIterator()
        await #expect(throws: SyncServerError.self) { try await lost.synchronize() }
        try await devices.stores[1].write { db in try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('bobs', 'Bob''s')") }
        while let commit = await commits.next(), commit.changes(in: "lists").inserted.isEmpty {
            #expect(SharedLists.tables.allSatisfy { commit.changes(in: $0).deleted.isEmpty }, "no shared row left, even for a moment")
        }
        #expect(try SharedLists.keys(devices.stores[1], "lists") == ["bobs", "shared"])
        #expect(try SharedLists.keys(devices.stores[1], "items") == ["eggs", "milk"])
        #expect(try devices.stores[1].sync.refusedChanges().isEmpty)
        try await sync(1)
        #expect(try SharedLists.keys(devices.stores[1], "items") == ["eggs", "milk"])
    }

    @Test("A shared list reaches the member with its items and tags, and a writer's edits reach the owner")
    func sharedListReachesMember() async throws {
        try await aliceWritesLists()
        try await devices.stores[1].write { db in try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('bobs', 'Bob''s')") }
        let members = try await client(0).share(table: "lists", key: .text("shared"), with: "bob", as: .writer)
        #expect(members.members == [SyncShareMember(account: "bob", role: .writer)])
        try await sync(1)
        #expect(try SharedLists.keys(devices.stores[1], "lists") == ["bobs", "shared"])
        #expect(try SharedLists.keys(devices.stores[1], "items") == ["eggs", "milk"])
        #expect(try SharedLists.dump(devices.stores[1], "tags") == ["'t1'|'milk'|'dairy'"])
        #expect(try await client(1).memberships().map(\.owner) == ["alice"])

        try await devices.stores[1].write { db in
            try db.execute(sql: "UPDATE items SET title = 'Oat milk' WHERE id = 'milk'")
            try db.execute(sql: "INSERT INTO items(id, list, title) VALUES ('bread', 'shared', 'Bread')")
            try db.execute(sql: "INSERT INTO tags(id, item, label) VALUES ('t2', 'bread', 'bakery')")
        }
        let progress = try await sync(1)
        #expect(progress.refused == 0)
        try await sync(0)
        #expect(
            try SharedLists.dump(devices.stores[0], "items") == [
                "'bread'|'shared'|'Bread'", "'eggs'|'shared'|'Eggs'", "'milk'|'shared'|'Oat milk'", "'ring'|'private'|'Ring'",
            ])
        #expect(try SharedLists.keys(devices.stores[0], "lists") == ["private", "shared"], "bob's own list stays his")
        #expect(try SharedLists.keys(devices.stores[0], "tags") == ["t1", "t2"])

        // Bob's second device, new: its snapshot brings his data, then the list shared with him.
        try await sync(2)
        #expect(try SharedLists.keys(devices.stores[2], "lists") == ["bobs", "shared"])
        #expect(try SharedLists.keys(devices.stores[2], "items") == ["bread", "eggs", "milk"])
    }

    @Test("A reader's change is refused, its row takes the server's state, and its other writes are stored")
    func readerChangeRefused() async throws {
        try await aliceWritesLists()
        try await client(0).share(table: "lists", key: .text("shared"), with: "bob", as: .reader)
        try await sync(1)
        try await devices.stores[1].write { db in
            try db.execute(sql: "UPDATE items SET title = 'Chocolate milk' WHERE id = 'milk'")
            try db.execute(sql: "INSERT INTO items(id, list, title) VALUES ('cake', 'shared', 'Cake')")
            try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('bobs', 'Bob''s')")
        }
        let stream = devices.stores[1].sync.refusals()
        let progress = try await sync(1)
        #expect(progress.refused == 4, "the edit of milk, and the three columns of the new cake")
        let refusals = try devices.stores[1].sync.refusedChanges()
        var streamed = stream.makeAsyncIterator()
        for refusal in refusals { #expect(await streamed.next() == refusal, "the stream has each refusal, once committed") }
        #expect(Set(refusals.map(\.reason)) == [.readOnly])
        #expect(Set(refusals.map(\.key)) == [.text("milk"), .text("cake")])
        #expect(refusals.filter { $0.key == .text("milk") }.map(\.column) == ["title"], "a refusal names the column its change set")
        #expect(try SharedLists.dump(devices.stores[1], "items") == ["'eggs'|'shared'|'Eggs'", "'milk'|'shared'|'Milk'"])
        #expect(try SharedLists.keys(devices.stores[1], "lists") == ["bobs", "shared"])
        try await sync(0)
        #expect(try SharedLists.dump(devices.stores[0], "items").contains("'milk'|'shared'|'Milk'"))
        #expect(try !SharedLists.keys(devices.stores[0], "items").contains("cake"))
        #expect(try !SharedLists.keys(devices.stores[0], "lists").contains("bobs"))
        // Promoted to writer, the same edit is stored.
        try await client(0).share(table: "lists", key: .text("shared"), with: "bob", as: .writer)
        try await devices.stores[1].write { db in try db.execute(sql: "UPDATE items SET title = 'Chocolate milk' WHERE id = 'milk'") }
        #expect(try await sync(1).refused == 0)
        try await sync(0)
        #expect(try SharedLists.dump(devices.stores[0], "items").contains("'milk'|'shared'|'Chocolate milk'"))
    }

    @Test("A row moved out of a share leaves the member's devices, and comes back whole when moved in")
    func movesInAndOut() async throws {
        try await aliceWritesLists()
        try await client(0).share(table: "lists", key: .text("shared"), with: "bob", as: .writer)
        try await sync(1)
        try await devices.stores[0].write { db in try db.execute(sql: "UPDATE items SET list = 'private' WHERE id = 'milk'") }
        try await sync(0)
        try await sync(1)
        #expect(try SharedLists.keys(devices.stores[1], "items") == ["eggs"])
        #expect(try SharedLists.keys(devices.stores[1], "tags").isEmpty, "the tag under the moved item went with it")
        try await devices.stores[0].write { db in
            try db.execute(sql: "UPDATE items SET title = 'Milk, moved' WHERE id = 'milk'")
            try db.execute(sql: "UPDATE items SET list = 'shared' WHERE id = 'ring'")
        }
        try await sync(0)
        try await sync(1)
        #expect(try SharedLists.dump(devices.stores[1], "items") == ["'eggs'|'shared'|'Eggs'", "'ring'|'shared'|'Ring'"])
        try await devices.stores[0].write { db in try db.execute(sql: "UPDATE items SET list = 'shared' WHERE id = 'milk'") }
        try await sync(0)
        try await sync(1)
        #expect(try SharedLists.dump(devices.stores[1], "items").contains("'milk'|'shared'|'Milk, moved'"))
        #expect(try SharedLists.dump(devices.stores[1], "tags") == ["'t1'|'milk'|'dairy'"], "its tag came back with it")
        // A writer may not move a row out of the owner's data.
        try await devices.stores[1].write { db in
            try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('bobs', 'Bob''s')")
            try db.execute(sql: "UPDATE items SET list = 'bobs' WHERE id = 'eggs'")
        }
        #expect(try await sync(1).refused == 1)
        #expect(try devices.stores[1].sync.refusedChanges().map(\.reason) == [.crossesAccounts])
        #expect(try SharedLists.dump(devices.stores[1], "items").contains("'eggs'|'shared'|'Eggs'"))
    }

    @Test("A revocation removes the list from every device of the member, offline ones too, and from no one else")
    func revocationRemoves() async throws {
        try await aliceWritesLists()
        try await devices.stores[1].write { db in try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('bobs', 'Bob''s')") }
        try await client(0).share(table: "lists", key: .text("shared"), with: "bob", as: .writer)
        try await sync(1)
        try await sync(2)
        #expect(try SharedLists.keys(devices.stores[2], "items") == ["eggs", "milk"])
        // Device 2 goes offline; device 1 edits, then alice edits and revokes.
        try await devices.stores[1].write { db in try db.execute(sql: "UPDATE items SET title = 'Eggs (6)' WHERE id = 'eggs'") }
        try await sync(1)
        try await devices.stores[0].write { db in try db.execute(sql: "INSERT INTO items(id, list, title) VALUES ('jam', 'shared', 'Jam')")
        }
        try await sync(0)
        try await client(0).revoke(table: "lists", key: .text("shared"), from: "bob")
        // Offline, device 2 edits the list it no longer may.
        try await devices.stores[2].write { db in try db.execute(sql: "UPDATE items SET title = 'Milk!' WHERE id = 'milk'") }
        try await sync(1)
        #expect(try SharedLists.keys(devices.stores[1], "lists") == ["bobs"])
        #expect(try SharedLists.keys(devices.stores[1], "items").isEmpty)
        #expect(try SharedLists.keys(devices.stores[1], "tags").isEmpty)
        // The documentation's loop, on the stream of device 2.
        let store = devices.stores[2]
        let refusals = store.sync.refusals()
        let shown = Task { () -> SyncRefusal.Reason? in
            for await refusal in refusals {
                print("not saved: \(refusal.table) \(refusal.key): \(refusal.message)")
                return refusal.reason
            }
            return nil
        }
        #expect(try await sync(2).refused == 1)
        #expect(try devices.stores[2].sync.refusedChanges().map(\.reason) == [.notShared])
        #expect(await shown.value == .notShared)
        #expect(try SharedLists.keys(devices.stores[2], "lists") == ["bobs"], "the offline device removed it when it came back")
        #expect(try SharedLists.keys(devices.stores[2], "items").isEmpty)
        try await sync(0)
        #expect(try SharedLists.keys(devices.stores[0], "items") == ["eggs", "jam", "milk", "ring"], "nothing was deleted on the server")
        #expect(try SharedLists.dump(devices.stores[0], "items").contains("'eggs'|'shared'|'Eggs (6)'"))
        #expect(try SharedLists.dump(devices.stores[0], "items").contains("'milk'|'shared'|'Milk'"), "the refused edit reached no one")
        #expect(try await client(1).memberships().isEmpty)
        #expect(try await client(0).members(table: "lists", key: .text("shared")).members.isEmpty)
    }

    @Test("Shares are the owner's to change, and nothing is disclosed to others")
    func refusesOthers() async throws {
        try await aliceWritesLists()
        try await sync(1)
        // Bob cannot share, list the members of, or read alice's list, and is not told it exists.
        let share = SyncShareRequest(table: "lists", key: .text("shared"), member: "alice", role: .writer)
        let shared = try await HTTP.send(
            "POST", server.url.appendingPathComponent(SyncWireFormat.sharesPath), token: bob, body: try JSONEncoder().encode(share))
        #expect(shared.status == 403)
        let missing = SyncShareRequest(table: "lists", key: .text("no such list"), member: "alice", role: .writer)
        let missingAnswer = try await HTTP.send(
            "POST", server.url.appendingPathComponent(SyncWireFormat.sharesPath), token: bob, body: try JSONEncoder().encode(missing))
        #expect(missingAnswer.status == 403)
        #expect(
            try shared.decode(SyncWireError.self).message.replacingOccurrences(of: "\"shared\"", with: "X")
                == missingAnswer.decode(SyncWireError.self).message.replacingOccurrences(of: "\"no such list\"", with: "X"))
        await #expect(throws: SyncServerError.self) { try await client(1).members(table: "lists", key: .text("shared")) }
        let page = try await HTTP.send(
            "GET",
            server.url.appendingPathComponent(SyncWireFormat.sharedPath).appending(queryItems: [
                URLQueryItem(name: "format", value: "1"), URLQueryItem(name: "share", value: "1/lists:{\"text\":\"shared\"}"),
            ]), token: bob)
        #expect(page.status == 403)
        let forged = try await HTTP.send(
            "GET", server.url.appendingPathComponent(SyncWireFormat.membershipsPath), token: "sst_forged")
        #expect(forged.status == 401)
        // Rows bob makes with the keys of alice's rows are his own: nothing reaches alice.
        try await devices.stores[1].write { db in
            try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('shared', 'not alice''s')")
            try db.execute(sql: "INSERT INTO items(id, list, title) VALUES ('milk', 'shared', 'not alice''s')")
        }
        #expect(try await sync(1).refused == 0)
        try await sync(0)
        #expect(try SharedLists.dump(devices.stores[0], "items").contains("'milk'|'shared'|'Milk'"))
        #expect(try SharedLists.dump(devices.stores[0], "lists").contains("'shared'|'Groceries'"))
        #expect(try SharedLists.dump(devices.stores[1], "items") == ["'milk'|'shared'|'not alice''s'"])
    }
}

/// The platform's transport, with every memberships request answered 404, as a proxy that
/// routes it nowhere would.
private struct MembershipsNotFound: SyncTransport {
    let base = PlatformSyncTransport()

    func send(_ request: SyncTransportRequest) async throws -> SyncTransportResponse {
        guard request.url.path == SyncWireFormat.membershipsPath else { return try await base.send(request) }
        return SyncTransportResponse(status: 404, body: Data("Not Found".utf8))
    }
}
