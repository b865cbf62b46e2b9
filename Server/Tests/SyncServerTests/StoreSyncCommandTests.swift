import Foundation
import SyncServerHarness
import Testing

/// `store sync`, its sharing subcommands and `store demo`'s sync scene, the root package's
/// commands, against a server: they need the `store` binary that
/// `swift build --package-path Server --product store` builds beside these tests, with its sync
/// commands (this package enables the root's SyncCommands trait), as the README's test command
/// and `.ci/run` do first; `STORE_BINARY` names another.
@Suite("store sync", .serialized, .timeLimit(.minutes(2)))
struct StoreSyncCommandTests {
    /// The root package's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let binary = ChildProcess.binary("store", override: "STORE_BINARY")

    static var built: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    private func store(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        let output = Pipe()
        let error = Pipe()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let said = output.fileHandleForReading.readDataToEndOfFile()
        let complained = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self), String(decoding: complained, as: UTF8.self))
    }

    @Test("Two database files sync through the command; a forged token exits 1, a table that cannot sync exits 2", .enabled(if: built))
    func syncFiles() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let clients = try SyncedStores(count: 2)
        try await clients.stores[0].write { db in
            try db.execute(sql: "INSERT INTO items(id, title, n) VALUES ('x', 'one', 1), ('y', 'two', 2)")
        }
        let files = (0..<2).map { clients.folder.appendingPathComponent("client-\($0).sqlite").path }
        let common = ["--tables", "items,tags", "--server", server.url.absoluteString]
        let pushed = try store(["sync", "--database", files[0], "--token", token] + common)
        #expect(pushed.status == 0, "\(pushed.error)")
        #expect(pushed.output == "pushed 6 changes, pulled 0\n")
        let pulled = try store(["sync", "--database", files[1], "--token", token, "--json"] + common)
        #expect(pulled.status == 0, "\(pulled.error)")
        #expect(pulled.output.contains(#""pulled" : 6"#))
        #expect(try SyncedStores.dump(clients.stores[1], table: "items") == SyncedStores.dump(clients.stores[0], table: "items"))

        let forged = try store(["sync", "--database", files[0], "--token", token + "0"] + common)
        #expect(forged.status == 1 && forged.error.contains("unauthorized"))
        let rowid = try store([
            "sync", "--database", files[0], "--token", token, "--tables", "sqlite_master", "--server", server.url.absoluteString,
        ])
        #expect(rowid.status == 2, "\(rowid.error)")
    }

    /// A server that shares lists (started with `options` too), alice's and bob's tokens, and a
    /// device of each: alice's holds the list "shared" with the item "milk", not synced yet.
    private func sharedList(
        options: [String] = []
    ) async throws -> (server: SyncServerProcess, tokens: (alice: String, bob: String), devices: SyncedStores) {
        let fixture = try ServerFixture()
        let server = try await SharedLists.server(fixture, options: options)
        let tokens = (alice: try fixture.token(for: "alice"), bob: try fixture.token(for: "bob"))
        let devices = try SharedLists.devices(2)
        try await devices.stores[0].write { db in
            try db.execute(
                script: """
                    INSERT INTO lists(id, title) VALUES ('shared', 'Groceries');
                    INSERT INTO items(id, list, title) VALUES ('milk', 'shared', 'Milk');
                    """)
        }
        return (server, tokens, devices)
    }

    /// Runs `store arguments` on device `index`'s file of `devices` against `server`, with
    /// alice's token for device 0 and bob's for the others.
    private func store(
        _ arguments: [String], device index: Int, of devices: SyncedStores, server: SyncServerProcess, tokens: (alice: String, bob: String)
    ) throws -> (status: Int32, output: String, error: String) {
        try store(
            arguments + [
                "--database", devices.path(index), "--server", server.url.absoluteString, "--token", index == 0 ? tokens.alice : tokens.bob,
            ])
    }

    private func json(_ output: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
    }

    @Test(
        "store sync share, members, memberships and revoke manage a list's members; a 403, a 400 and a server without sharing exit 1, a bad role 2",
        .enabled(if: built))
    func sharingCommands() async throws {
        let (server, tokens, devices) = try await sharedList()
        let run = { (index: Int, arguments: [String]) in
            try self.store(arguments, device: index, of: devices, server: server, tokens: tokens)
        }
        let sync = ["sync", "--tables", "lists,items,tags"]
        let synced = try run(0, sync)
        #expect(synced.status == 0 && synced.output == "pushed 4 changes, pulled 0\n", "\(synced)")
        // Bob's device has synced its own list since alice's changes: his cursor is past them, so
        // the list comes as a grant whose rows his device reads, not in his pull's changes.
        try await devices.stores[1].write { db in try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('bobs', 'Bob''s')") }
        #expect(try run(1, sync).output == "pushed 1 changes, pulled 0\n")

        let shared = try run(0, ["sync", "share", "--table", "lists", "--key", "shared", "--with", "bob", "--as", "reader"])
        #expect(shared.status == 0, "\(shared.error)")
        #expect(shared.output == "shared lists 'shared' with bob as reader\nmembers of lists 'shared':\n  bob (reader)\n")
        let members = try run(0, ["sync", "members", "--table", "lists", "--key", "shared", "--json"])
        #expect(members.status == 0, "\(members.error)")
        let document = try json(members.output)
        #expect(document["command"] as? String == "sync members")
        #expect(document["members"] as? [[String: String]] == [["account": "bob", "role": "reader"]], "\(members.output)")
        #expect(document["key"] as? [String: String] == ["text": "shared"], "\(members.output)")
        let memberships = try run(1, ["sync", "memberships"])
        #expect(
            memberships.status == 0 && memberships.output == "member of 1 share:\n  alice's lists 'shared' as reader\n", "\(memberships)")
        #expect(try run(1, sync).status == 0)
        #expect(try SharedLists.dump(devices.stores[1], "items") == ["'milk'|'shared'|'Milk'"], "one sync brings the shared list")

        // 403: a row the server does not hold, an account that does not exist, another account's root.
        let unsynced = try run(0, ["sync", "share", "--table", "lists", "--key", "nosuch", "--with", "bob", "--as", "writer"])
        #expect(unsynced.status == 1, "\(unsynced)")
        #expect(unsynced.error.contains("lists 'nosuch' is not a root of this account's data") && unsynced.error.contains("HTTP 403"))
        let noAccount = try run(0, ["sync", "share", "--table", "lists", "--key", "shared", "--with", "carol", "--as", "writer"])
        #expect(noAccount.status == 1 && noAccount.error.contains("or no account is named carol"), "\(noAccount)")
        let othersRoot = try run(1, ["sync", "members", "--table", "lists", "--key", "shared", "--json"])
        #expect(othersRoot.status == 1, "\(othersRoot)")
        let refusal = try json(othersRoot.output)["error"] as? [String: Any]
        #expect(refusal?["kind"] as? String == "forbidden", "\(othersRoot.output)")
        #expect((refusal?["message"] as? String)?.hasPrefix("lists 'shared' is not a root of this account's data") == true)
        // 400: not a root table; 2: not a role.
        let notRoot = try run(0, ["sync", "share", "--table", "items", "--key", "milk", "--with", "bob", "--as", "writer"])
        #expect(notRoot.status == 1 && notRoot.error.contains("\"items\" is not a root table"), "\(notRoot)")
        let badRole = try run(0, ["sync", "share", "--table", "lists", "--key", "shared", "--with", "bob", "--as", "owner"])
        #expect(badRole.status == 2, "\(badRole)")

        let revoked = try run(0, ["sync", "revoke", "--table", "lists", "--key", "shared", "--from", "bob"])
        #expect(revoked.status == 0, "\(revoked.error)")
        #expect(revoked.output == "revoked the membership of bob in lists 'shared'\nmembers of lists 'shared': none\n")
        #expect(try run(1, ["sync", "memberships"]).output == "member of no shares\n")
        #expect(try run(1, sync).status == 0)
        #expect(try SharedLists.keys(devices.stores[1], "lists") == ["bobs"], "one sync removes the revoked list")
        #expect(try SharedLists.keys(devices.stores[0], "items") == ["milk"])

        // A server without sharing.
        let plain = try await ServerFixture().startServer()
        let unshared = try store([
            "sync", "share", "--database", devices.path(0), "--server", plain.url.absoluteString, "--token", tokens.alice, "--table",
            "lists", "--key", "shared", "--with", "bob", "--as", "reader",
        ])
        #expect(unshared.status == 1 && unshared.error.contains("does not share rows between accounts"), "\(unshared)")
    }

    @Test(
        "store sync subscribe, subscriptions and unsubscribe: the database holds what its subscriptions cover, then all again",
        .enabled(if: built))
    func subscriptionCommands() async throws {
        let (server, tokens, devices) = try await sharedList(options: SharedListsSchema.subscriptionOptions)
        let sync = ["sync", "--tables", "lists,items,tags"]
        let local = ["--database", devices.path(0), "--tables", "lists,items,tags"]
        #expect(try store(sync, device: 0, of: devices, server: server, tokens: tokens).status == 0)
        try await devices.stores[0].write { db in try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('other', 'Other')") }

        let subscribed = try store(["sync", "subscribe", "--to", "list", "--parameter", "shared", "--priority", "2"] + local)
        #expect(subscribed.status == 0, "\(subscribed.error)")
        #expect(subscribed.output == "subscription 1: list 'shared', priority 2: 0 rows read, to read at the next sync\n")
        #expect(try store(sync, device: 0, of: devices, server: server, tokens: tokens).status == 0)
        #expect(try SharedLists.keys(devices.stores[0], "lists") == ["shared"], "the other list, sent, leaves")
        let listed = try store(["sync", "subscriptions", "--json"] + local)
        #expect(listed.status == 0, "\(listed.error)")
        let entries = try json(listed.output)["subscriptions"] as? [[String: Any]]
        #expect(entries?.first?["rowsRead"] as? Int == 2 && entries?.first?["complete"] as? Bool == true, "\(listed.output)")
        let integer = try store(["sync", "subscribe", "--to", "titled", "--parameter", "x", "--integer"] + local)
        #expect(integer.status == 2, "\(integer)")

        let ended = try store(["sync", "unsubscribe", "--id", "1"] + local)
        #expect(ended.status == 0 && ended.output == "ended subscription 1; the next sync reads the whole data\n", "\(ended)")
        #expect(try store(["sync", "unsubscribe", "--id", "1"] + local).status == 2, "no such subscription")
        #expect(try store(sync, device: 0, of: devices, server: server, tokens: tokens).status == 0)
        #expect(try SharedLists.keys(devices.stores[0], "lists") == ["other", "shared"])
    }

    @Test(
        "store sync lists the changes the server refused: a reader's edit of a shared item, by table, key and reason", .enabled(if: built))
    func refusedChanges() async throws {
        let (server, tokens, devices) = try await sharedList()
        let run = { (index: Int, arguments: [String]) in
            try self.store(arguments, device: index, of: devices, server: server, tokens: tokens)
        }
        let sync = ["sync", "--tables", "lists,items,tags"]
        #expect(try run(0, sync).status == 0)
        #expect(try run(0, ["sync", "share", "--table", "lists", "--key", "shared", "--with", "bob", "--as", "reader"]).status == 0)
        let joined = try run(1, sync)
        #expect(joined.status == 0 && joined.output.hasPrefix("pushed 0 changes, pulled "), "\(joined)")
        #expect(try SharedLists.dump(devices.stores[1], "items") == ["'milk'|'shared'|'Milk'"])

        try await devices.stores[1].write { db in
            try db.execute(sql: "UPDATE items SET title = 'Chocolate milk' WHERE id = 'milk'")
            try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('bobs', 'Bob''s')")
        }
        let refused = try run(1, sync)
        #expect(refused.status == 0, "refused changes are not a failure: \(refused.error)")
        #expect(
            refused.output == """
                pushed 1 changes, pulled 0; the server refused 1 (their rows hold its state again):
                  items 'milk': readOnly (1 change): the row belongs to a share this account reads only

                """, "\(refused)")
        #expect(try SharedLists.dump(devices.stores[1], "items") == ["'milk'|'shared'|'Milk'"], "the row holds the server's state")

        try await devices.stores[1].write { db in
            try db.execute(sql: "INSERT INTO items(id, list, title) VALUES ('cake', 'shared', 'Cake')")
        }
        let inJSON = try run(1, sync + ["--json"])
        #expect(inJSON.status == 0, "\(inJSON.error)")
        let document = try json(inJSON.output)
        #expect(document["refused"] as? Int == 3, "the three columns of the new cake: \(inJSON.output)")
        let refusals = try #require(document["refusals"] as? [[String: Any]], "\(inJSON.output)")
        #expect(refusals.map { $0["reason"] as? String } == ["readOnly", "readOnly", "readOnly"])
        #expect(refusals.map { $0["table"] as? String } == ["items", "items", "items"])
        #expect(refusals.map { $0["key"] as? [String: String] } == [["text": "cake"], ["text": "cake"], ["text": "cake"]])
        #expect(try SharedLists.keys(devices.stores[1], "items") == ["milk"])

        // With --live, the refusals of the session are listed when it stops.
        let log = devices.folder.appendingPathComponent("live.log")
        try Data().write(to: log)
        let live = Process()
        live.executableURL = Self.binary
        live.arguments = sync + ["--live", "--database", devices.path(1), "--server", server.url.absoluteString, "--token", tokens.bob]
        live.standardOutput = try FileHandle(forWritingTo: log)
        try live.run()
        defer { if live.isRunning { live.terminate() } }
        let said = { String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self) }
        try await waitFor("the live session's first sync") { said().hasPrefix("pushed 0 changes, pulled 0\n") }
        let recorded = try devices.stores[1].sync.refusedChanges().count
        try await devices.stores[1].write { db in try db.execute(sql: "UPDATE items SET title = 'Oat milk' WHERE id = 'milk'") }
        try await waitFor("the refusal") { try devices.stores[1].sync.refusedChanges().count > recorded }
        live.interrupt()
        live.waitUntilExit()
        #expect(live.terminationStatus == 0)
        #expect(
            said().hasSuffix(
                """
                the server refused 1 change while live (their rows hold its state again):
                  items 'milk': readOnly (1 change): the row belongs to a share this account reads only

                """), "\(said())")
        #expect(try SharedLists.dump(devices.stores[1], "items") == ["'milk'|'shared'|'Milk'"])
    }

    /// Waits until `condition` holds, checking every 20 ms for up to 20 s.
    private func waitFor(_ what: String, _ condition: () throws -> Bool) async throws {
        for _ in 0..<1_000 {
            if try condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("waited 20 s for \(what)")
    }

    @Test(
        "store demo's sync scene: A shares a list with B, both edit it live and offline, the server refuses B's edit as reader, and A's revocation takes the list off B's screen; a second run clears the first's list",
        .enabled(if: built))
    func demoSyncScene() async throws {
        let fixture = try ServerFixture()
        let migrations = Self.root.appendingPathComponent("Migrations")
        let server = try await SyncServerProcess(
            database: fixture.database, migrations: migrations, tables: ["note", "note_list"],
            options: ["--share-roots", "note_list", "--share-paths", "note.list_id=note_list"])
        let (ana, ben) = (try fixture.token(for: "ana"), try fixture.token(for: "ben"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [
            "demo", "--database", folder.appendingPathComponent("demo.sqlite").path, "--migrations", migrations.path, "--server",
            server.url.absoluteString, "--token", ana,
        ]
        for run in 0..<2 {
            let demo = try store(arguments + ["--second-account", "ben", "--second-token", ben])
            #expect(demo.status == 0, "\(demo.output)\(demo.error)")
            let lines = demo.output.split(separator: "\n").map(String.init)
            let scene = Array(lines.drop { !$0.hasPrefix("sync: A (") })
            #expect(scene.contains { $0.hasPrefix("▶ A deletes the 1 list of an earlier run") } == (run == 1), "\(demo.output)")
            #expect(
                scene.contains {
                    $0.hasPrefix("  B: ChangeSet(sectionInserts: [0]) arrived ") && $0.hasSuffix(" ms after A's share began")
                },
                "\(demo.output)")
            #expect(scene.contains("  B's memberships: ana's note_list as writer"), "\(demo.output)")
            #expect(
                scene.contains { $0.hasPrefix("  A: ChangeSet(updates: ") && $0.hasSuffix(" ms after B's write began") }, "\(demo.output)")
            #expect(scene.contains { $0.hasPrefix("  B: ChangeSet(") && $0.contains("· A: ChangeSet(") }, "\(demo.output)")
            #expect(scene.contains("      Buy oat milk · red"), "each person kept the other's column: \(demo.output)")
            #expect(
                scene.contains {
                    $0.hasPrefix("  B: ChangeSet(updates: ") && $0.contains("when the server refused the change (readOnly: ")
                },
                "\(demo.output)")
            #expect(scene.contains("      Water plants · green"), "B's refused edit gave way to the server's state: \(demo.output)")
            #expect(scene.contains("sync: A and B hold the same list and 3 notes, byte for byte."), "\(demo.output)")
            #expect(
                scene.contains {
                    $0.hasPrefix("  B: ChangeSet(sectionDeletes: [0]) arrived ") && $0.hasSuffix(" ms after A's revocation began")
                },
                "\(demo.output)")
            #expect(scene.last { $0.hasPrefix("    ") } == "    (no notes)", "the list left B's screen: \(demo.output)")
            #expect(scene.contains("sync: B holds nothing of the list; A still holds it and its 3 notes."), "\(demo.output)")
        }
        for person in ["a", "b"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("demo.person-\(person).sqlite").path))
        }
        let stranger = try store(arguments + ["--second-account", "nobody", "--second-token", ben])
        #expect(stranger.status == 1 && stranger.error.contains("no account has the name --second-account gave"), "\(stranger)")
        #expect(stranger.error.contains("HTTP 403"), "\(stranger)")
    }
}
