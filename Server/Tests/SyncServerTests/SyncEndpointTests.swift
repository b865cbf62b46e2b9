import Foundation
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

/// The server's endpoints against a real PostgreSQL: what is stored, once, for whom, and what
/// is refused with nothing stored.
@Suite("Sync server endpoints", .serialized, .timeLimit(.minutes(2)))
struct SyncEndpointTests {
    @Test("A push sent twice is stored once; the answer says how many were new")
    func idempotentPush() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let changes = (1...4).map { ServerFixture.change(sequence: $0) }
        let body = try ServerFixture.push(Array(changes[0..<3]))
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        let first = try await HTTP.send("POST", push, token: token, body: body)
        let second = try await HTTP.send("POST", push, token: token, body: body)
        #expect(first.status == 200 && second.status == 200)
        #expect(try first.decode(SyncPushResponse.self).stored == 3)
        #expect(try second.decode(SyncPushResponse.self).stored == 0)
        let overlapping = try ServerFixture.push(Array(changes[1...3]))
        #expect(try await HTTP.send("POST", push, token: token, body: overlapping).decode(SyncPushResponse.self).stored == 1)
        #expect(try await ServerDatabase.changes(in: fixture.database).map(\.sequence) == [1, 2, 3, 4])
    }

    /// A database copied to another machine, or restored from a backup, goes on under the same
    /// device id and numbers its next changes as the original numbered its own: storing nothing
    /// for a change id already held, as for a replay, lost the copy's change on every device.
    @Test("A change id stored before with other contents refuses the whole push (forkedDevice), with nothing stored")
    func forkedDevicePush() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        let original = ServerFixture.change(sequence: 1)
        #expect(try await HTTP.send("POST", push, token: token, body: try ServerFixture.push([original])).status == 200)
        let stored = try await ServerDatabase.wireChanges(in: fixture.database)
        let copies = [
            SyncWireChange(
                device: original.device, sequence: 1, table: original.table, key: original.key,
                operation: .set(column: "title", value: .text("the copy's title")), hlc: original.hlc),
            SyncWireChange(
                device: original.device, sequence: 1, table: original.table, key: original.key, operation: original.operation,
                hlc: original.hlc + 1),
            SyncWireChange(
                device: original.device, sequence: 1, table: original.table, key: .text("another row"),
                operation: original.operation, hlc: original.hlc),
            SyncWireChange(
                device: original.device, sequence: 1, table: original.table, key: original.key, operation: .delete, hlc: original.hlc),
        ]
        for copy in copies {
            let answer = try await HTTP.send(
                "POST", push, token: token, body: try ServerFixture.push([ServerFixture.change(sequence: 2), copy]))
            #expect(answer.status == 409, "\(copy): \(answer.text)")
            #expect((try? answer.decode(SyncWireError.self).code) == .forkedDevice, "\(copy): \(answer.text)")
        }
        #expect(try await ServerDatabase.wireChanges(in: fixture.database) == stored)
        let replay = try await HTTP.send("POST", push, token: token, body: try ServerFixture.push([original]))
        #expect(try replay.decode(SyncPushResponse.self).stored == 0)
    }

    @Test("A pull returns other devices' changes after the cursor, in pages, skips the puller's own and names its highest")
    func pullSinceCursor() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let changes = (1...5).map { ServerFixture.change(sequence: $0) }
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        _ = try await HTTP.send("POST", push, token: token, body: try ServerFixture.push(changes))
        var cursor: Int64 = 0
        var received: [SyncWireChange] = []
        var pages = 0
        while true {
            let page = try await HTTP.send("GET", ServerFixture.pullURL(server.url, since: cursor, limit: 2), token: token)
                .decode(SyncPullResponse.self)
            received += page.changes
            cursor = page.cursor
            pages += 1
            if !page.more { break }
        }
        #expect(received == changes)
        #expect(pages == 3)
        let again = try await HTTP.send("GET", ServerFixture.pullURL(server.url, since: cursor), token: token)
            .decode(SyncPullResponse.self)
        #expect(again.changes.isEmpty && again.cursor == cursor && !again.more)
        #expect(again.deviceSequence == nil, "device-b has no change on the server")
        let own = try await HTTP.send("GET", ServerFixture.pullURL(server.url, device: "device-a"), token: token)
            .decode(SyncPullResponse.self)
        #expect(own.changes.isEmpty && own.cursor == cursor)
        #expect(own.deviceSequence == 5, "the answer names the highest of device-a's changes it passed over")
        let past = try await HTTP.send("GET", ServerFixture.pullURL(server.url, since: cursor, device: "device-a"), token: token)
            .decode(SyncPullResponse.self)
        #expect(past.deviceSequence == nil, "it passed over none")
    }

    @Test("Every server process answers a push, a pull and a refusal with the same bytes: its keys sorted")
    func answersAreByteStable() async throws {
        let fixture = try ServerFixture()
        let servers = [try await fixture.startServer(), try await fixture.startServer()]
        let token = try fixture.token(for: "alice")
        let body = try ServerFixture.push((1...3).map { ServerFixture.change(sequence: $0) })
        _ = try await HTTP.send("POST", servers[0].url.appendingPathComponent(SyncWireFormat.pushPath), token: token, body: body)
        var answers: [[HTTP.Answer]] = []
        for server in servers {
            answers.append([
                try await HTTP.send("POST", server.url.appendingPathComponent(SyncWireFormat.pushPath), token: token, body: body),
                try await HTTP.send("GET", ServerFixture.pullURL(server.url), token: token),
                try await HTTP.send("GET", ServerFixture.pullURL(server.url), token: nil),
            ])
        }
        #expect(answers[0].map(\.status) == [200, 200, 401])
        #expect(answers[0].map(\.body) == answers[1].map(\.body))
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        #expect(try answers[0][0].body == sorted.encode(answers[0][0].decode(SyncPushResponse.self)))
        #expect(try answers[0][1].body == sorted.encode(answers[0][1].decode(SyncPullResponse.self)))
        #expect(try answers[0][2].body == sorted.encode(answers[0][2].decode(SyncWireError.self)))
    }

    @Test("Without a token or with a forged one: 401 and nothing stored or read")
    func unauthorized() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let body = try ServerFixture.push([ServerFixture.change(sequence: 1)])
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        var forged = token
        forged.removeLast()
        forged.append(token.hasSuffix("0") ? "1" : "0")
        for candidate in [nil, "", forged, "sst_" + String(repeating: "0", count: 64)] as [String?] {
            let pushed = try await HTTP.send("POST", push, token: candidate, body: body)
            #expect(pushed.status == 401, "\(candidate ?? "no token")")
            #expect(try pushed.decode(SyncWireError.self).code == .unauthorized)
            #expect(try await HTTP.send("GET", ServerFixture.pullURL(server.url), token: candidate).status == 401)
        }
        #expect(try await ServerDatabase.changes(in: fixture.database).isEmpty)
    }

    @Test("An account sees none of another account's changes; the same change ids are distinct per account")
    func accountIsolation() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let alice = try fixture.token(for: "alice")
        let bob = try fixture.token(for: "bob")
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        let changes = (1...3).map { ServerFixture.change(sequence: $0) }
        _ = try await HTTP.send("POST", push, token: alice, body: try ServerFixture.push(changes))
        let seen = try await HTTP.send("GET", ServerFixture.pullURL(server.url), token: bob).decode(SyncPullResponse.self)
        #expect(seen.changes.isEmpty)
        let stored = try await HTTP.send("POST", push, token: bob, body: try ServerFixture.push([changes[0]]))
        #expect(try stored.decode(SyncPushResponse.self).stored == 1)
        let bobs = try await HTTP.send("GET", ServerFixture.pullURL(server.url), token: bob).decode(SyncPullResponse.self)
        #expect(bobs.changes == [changes[0]])
        let rows = try await ServerDatabase.changes(in: fixture.database)
        #expect(rows.map(\.account) == ["alice", "alice", "alice", "bob"])
    }

    @Test("A push made under a schema version the server's migrations do not reach, or a newer one, is refused with 409, nothing stored")
    func wrongSchemaVersion() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer(schemaVersion: 3)
        let token = try fixture.token(for: "alice")
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        for version: Int64 in [2, 4] {
            let answer = try await HTTP.send(
                "POST", push, token: token, body: try ServerFixture.push([ServerFixture.change(sequence: 1)], schemaVersion: version))
            #expect(answer.status == 409)
            let error = try answer.decode(SyncWireError.self)
            #expect(error.code == .upgradeRequired && error.message.contains("schema version \(version)"))
        }
        #expect(try await ServerDatabase.changes(in: fixture.database).isEmpty)
    }

    @Test("A push naming a table or column the server does not sync is refused whole (422, notSynced), nothing stored")
    func unknownTableOrColumn() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        func change(_ table: String, _ operation: SyncWireChange.Operation, sequence: Int64 = 2) -> SyncWireChange {
            var change = ServerFixture.change(sequence: sequence, table: table)
            change.operation = operation
            return change
        }
        let title = SyncWireChange.Operation.set(column: "title", value: .text("t"))
        let refused: [(change: SyncWireChange, names: String)] = [
            (change("memos", title), "\"memos\""), (change("memos", .delete), "\"memos\""),
            (change("store_sync_cells", .delete), "\"store_sync_cells\""), (change("later", .delete), "\"later\""),
            (change("items", .set(column: "color", value: .null)), "\"color\""),
            (change("items", .set(column: "id", value: .text("k"))), "\"id\""),  // the key is not a cell
            (change("items", .set(column: "Title", value: .null)), "\"Title\""),  // applied by exact name
            (change("tags", .set(column: "title", value: .null)), "\"title\" of table \"tags\""),
        ]
        for (bad, names) in refused {
            let body = try ServerFixture.push([ServerFixture.change(sequence: 1), bad, ServerFixture.change(sequence: 3)])
            let answer = try await HTTP.send("POST", push, token: token, body: body)
            #expect(answer.status == 422, "\(bad)")
            let error = try answer.decode(SyncWireError.self)
            #expect(error.code == .notSynced && error.message.contains(names), "\(error.message)")
        }
        #expect(try await ServerDatabase.changes(in: fixture.database).isEmpty)
        let known = [
            ServerFixture.change(sequence: 1), change("TAGS", .set(column: "label", value: .null)), change("tags", .delete, sequence: 3),
        ]
        let accepted = try await HTTP.send("POST", push, token: token, body: try ServerFixture.push(known))
        #expect(accepted.status == 200, "\(accepted.text)")
        #expect(try await ServerDatabase.changes(in: fixture.database).map(\.sequence) == [1, 2, 3])
    }

    @Test("A server whose tables cannot sync under its migrations does not start, and says why")
    func refusedSchema() async throws {
        let fixture = try ServerFixture()
        let migrations = try SyncedStores.migrations(version: 3)
        for (tables, reason) in [(["items", "memos"], "\"memos\" cannot be synced"), (["later"], "no primary key")] {
            do {
                _ = try await SyncServerProcess(database: fixture.database, migrations: migrations, tables: Set(tables))
                Issue.record("a server started with \(tables)")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
            }
        }
    }

    @Test("Malformed, unknown and oversized pushes are refused (400, 413), nothing stored")
    func badInput() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        let valid = String(decoding: try ServerFixture.push([ServerFixture.change(sequence: 1)]), as: UTF8.self)
        let bodies = [
            "", "{", "[]", #"{"format":1,"schemaVersion":1}"#, valid.replacingOccurrences(of: #""format":1"#, with: #""format":2"#),
            valid.replacingOccurrences(of: #""op":"set""#, with: #""op":"merge""#),
            valid.replacingOccurrences(of: #""sequence":1"#, with: #""sequence":0"#),
            valid.replacingOccurrences(of: #""table":"items""#, with: #""table":"""#),
            valid.replacingOccurrences(of: #""hlc":""#, with: #""hlc":"x"#),
        ]
        for body in bodies {
            let answer = try await HTTP.send("POST", push, token: token, body: Data(body.utf8))
            #expect(answer.status == 400, "\(body)")
            #expect((try? answer.decode(SyncWireError.self).code) == .malformed, "\(body): \(answer.text)")
        }
        let many = (1...10_001).map { ServerFixture.change(sequence: Int64($0)) }
        #expect(try await HTTP.send("POST", push, token: token, body: try ServerFixture.push(many)).status == 413)
        let huge = Data(repeating: UInt8(ascii: " "), count: 9 << 20)
        let oversized = try await HTTP.send("POST", push, token: token, body: huge)
        #expect(oversized.status == 413)
        #expect(try await HTTP.send("GET", ServerFixture.pullURL(server.url, limit: 0), token: token).status == 400)
        #expect(try await ServerDatabase.changes(in: fixture.database).isEmpty)
    }

    @Test("A change dated hours ahead of the server's clock is refused (422), nothing stored; half an hour ahead passes")
    func clockSkew() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let push = server.url.appendingPathComponent(SyncWireFormat.pushPath)
        let skewed = [ServerFixture.change(sequence: 1), ServerFixture.change(sequence: 2, ahead: .seconds(2 * 3600))]
        let refused = try await HTTP.send("POST", push, token: token, body: try ServerFixture.push(skewed))
        #expect(refused.status == 422)
        #expect(try refused.decode(SyncWireError.self).code == .clockSkew)
        #expect(try await ServerDatabase.changes(in: fixture.database).isEmpty)
        let near = [ServerFixture.change(sequence: 1, ahead: .seconds(1800))]
        #expect(try await HTTP.send("POST", push, token: token, body: try ServerFixture.push(near)).status == 200)
    }

    @Test("A long poll on one server process wakes when another process on the database stores a change")
    func livePushAcrossProcesses() async throws {
        let fixture = try ServerFixture()
        let first = try await fixture.startServer()
        let second = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let other = try fixture.token(for: "bob")
        let started = ContinuousClock.now
        async let woken = HTTP.send("GET", ServerFixture.pullURL(second.url, wait: 50), token: token, timeout: 120)
        async let notWoken = HTTP.send("GET", ServerFixture.pullURL(second.url, wait: 3), token: other, timeout: 120)
        try await Task.sleep(for: .milliseconds(500))
        let change = ServerFixture.change(sequence: 1)
        let pushed = try await HTTP.send(
            "POST", first.url.appendingPathComponent(SyncWireFormat.pushPath), token: token, body: try ServerFixture.push([change]))
        #expect(pushed.status == 200)
        let answer = try await woken.decode(SyncPullResponse.self)
        #expect(answer.changes == [change])
        // Woken by the notification, not by the end of the 50 s wait.
        #expect(ContinuousClock.now - started < .seconds(40))
        #expect(try await notWoken.decode(SyncPullResponse.self).changes.isEmpty)
    }
}
