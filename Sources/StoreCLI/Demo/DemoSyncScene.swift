import Foundation
import SQLiteStoreCore

#if SyncCommands
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// The demo's sync scene: two people, A and B, each on a device with its own database file
/// beside the demo's, sync notes and their lists through a sync server that shares lists
/// between accounts. A makes a list and shares it with B; both edit it live, and edits made
/// while B is offline merge column by column; A makes B a reader, and the server refuses B's
/// edit; A revokes B, and the list leaves B's screen.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
enum DemoSyncScene {
    /// Runs the scene with A's device at `database` with `.person-a` before its extension,
    /// syncing with `token`, and B's at `.person-b` with `member`'s token, both migrated by
    /// `migrator`, against `server`.
    static func run(database: String, migrator: Migrator, server: URL, token: String, member: Member) async throws {
        let base = (database as NSString).deletingPathExtension
        var devices: [DemoDevice] = []
        do {
            for (name, token) in [("A", token), ("B", member.token)] {
                let path = base + ".person-\(name.lowercased()).sqlite"
                devices.append(try await DemoDevice(name: name, path: path, migrator: migrator, server: server, token: token))
            }
            try await play(devices[0], devices[1], member: member.account, server: server)
        } catch {
            for device in devices { await device.close() }
            throw error
        }
        for device in devices { await device.close() }
    }

    private static func play(_ a: DemoDevice, _ b: DemoDevice, member: String, server: URL) async throws {
        print("sync: A (\(a.store.path), --token) and B (\(b.store.path), account \(member)) share a list of notes through \(server)")
        print("  A caught up: pulled \(a.caughtUp.pulled) changes; B caught up: pulled \(b.caughtUp.pulled)")
        a.goOnline()
        b.goOnline()

        let earlier = try a.listIDs()
        if !earlier.isEmpty {
            let seenBy = Set(try b.listIDs()).isDisjoint(with: earlier) ? [] : [b]
            try await edit("A deletes the \(earlier.count) list\(earlier.count == 1 ? "" : "s") of an earlier run", on: a, seenBy: seenBy) {
                db in
                for id in earlier {
                    try db.execute(sql: "DELETE FROM note WHERE list_id = ?", arguments: [id])
                    try db.execute(sql: "DELETE FROM note_list WHERE id = ?", arguments: [id])
                }
            }
        }
        let list = UUID().uuidString.lowercased()
        let (milk, call, plants) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        try await edit("A makes the list \"Groceries\" with three notes; B's device holds none of A's data", on: a, seenBy: []) { db in
            try db.execute(sql: "INSERT INTO note_list (id, name) VALUES (?, 'Groceries')", arguments: [list])
            for (id, text, color) in [(milk, "Buy milk", "yellow"), (call, "Call Ana", "blue"), (plants, "Water plants", "green")] {
                try db.execute(
                    sql: "INSERT INTO note (id, text, color, list_id) VALUES (?, ?, ?, ?)", arguments: [id, text, color, list])
            }
        }
        try await share(list, from: a, with: member, on: b)
        try await edit("B renames \"Call Ana\" to \"Call Ana at 5\"", on: b, seenBy: [a]) { db in
            try db.execute(sql: "UPDATE note SET text = 'Call Ana at 5' WHERE id = ?", arguments: [call])
        }
        try await offlineEdits(a, b, note: milk)
        try await refusedEdit(list, a, b, member: member, note: plants)
        let (notesOfA, notesOfB) = (try dump(a.store), try dump(b.store))
        print(
            notesOfA == notesOfB
                ? "sync: A and B hold the same list and \(b.notes.count) notes, byte for byte."
                : "sync: A and B differ: A holds \(notesOfA), B holds \(notesOfB)")
        try await revoke(list, from: a, member: member, on: b)
    }

    /// A shares the list with `member` as writer; B's screen shows it.
    private static func share(_ list: String, from a: DemoDevice, with member: String, on b: DemoDevice) async throws {
        print("▶ A shares \"Groceries\" with \(member) as writer")
        // A list is shared once the server holds it.
        try await a.waitUntilPushed()
        let started = ContinuousClock.now
        let members = try await shareRequest { try await a.client.share(table: "note_list", key: .text(list), with: member, as: .writer) }
        print("  the list's members: \(describe(members.members))")
        let changeSet = try await b.nextChangeSet()
        print("  B: \(changeSet) arrived \((ContinuousClock.now - started).millisecondsText) ms after A's share began")
        printScreen(of: b)
        let shares = try await b.client.memberships()
        guard shares.contains(where: { $0.share == members.share }) else {
            throw CommandFailure(
                status: .failed, kind: "usage",
                message: "--second-token is not a token of account \(member) (--second-account): B is no member of A's list")
        }
        for share in shares { print("  B's memberships: \(share.owner)'s \(share.table) as \(share.role.rawValue)") }
    }

    /// A makes `member` a reader; B edits a note anyway, and the server refuses the change:
    /// B's screen shows the edit, then the server's state again.
    private static func refusedEdit(_ list: String, _ a: DemoDevice, _ b: DemoDevice, member: String, note id: String) async throws {
        print("▶ A makes \(member) a reader; B renames \"Water plants\" to \"Water the plants\"")
        let members = try await shareRequest { try await a.client.share(table: "note_list", key: .text(list), with: member, as: .reader) }
        print("  the list's members: \(describe(members.members))")
        try await b.write { db in try db.execute(sql: "UPDATE note SET text = 'Water the plants' WHERE id = ?", arguments: [id]) }
        let edited = try await b.nextChangeSet()
        let restored = try await b.nextChangeSet()
        let reason = try b.store.sync.refusedChanges().last.map { "\($0.reason.rawValue): \($0.message)" } ?? "no refusal recorded"
        print("  B: \(edited), then \(restored) when the server refused the change (\(reason))")
        printScreen(of: b)
    }

    /// A revokes `member`'s membership; the list leaves B's screen.
    private static func revoke(_ list: String, from a: DemoDevice, member: String, on b: DemoDevice) async throws {
        print("▶ A revokes \(member)'s membership of \"Groceries\"")
        let started = ContinuousClock.now
        let members = try await shareRequest { try await a.client.revoke(table: "note_list", key: .text(list), from: member) }
        print("  the list's members: \(describe(members.members))")
        let changeSet = try await b.nextChangeSet()
        print("  B: \(changeSet) arrived \((ContinuousClock.now - started).millisecondsText) ms after A's revocation began")
        printScreen(of: b)
        let listsOfB = try b.listIDs()
        print(
            listsOfB.isEmpty && b.notes.isEmpty
                ? "sync: B holds nothing of the list; A still holds it and its \(a.notes.count) notes."
                : "sync: B still holds \(listsOfB.count) lists and \(b.notes.count) notes")
    }

    /// Runs a sharing request of A, saying what a refusal means for the scene.
    private static func shareRequest(_ request: () async throws -> SyncShareMembers) async throws -> SyncShareMembers {
        do {
            return try await request()
        } catch let error as SyncServerError {
            let start = "start the server with \(DemoSyncInstructions.serverOptions)"
            let hint: String
            switch error.reason {
            case .forbidden: hint = "no account has the name --second-account gave, or the list is not on the server"
            case .malformed: hint = "--second-account names B's account, not A's; and \(start)"
            case _ where error.status == 404: hint = "the server does not share: \(start)"
            default: throw error
            }
            throw CommandFailure(status: .failed, kind: "sync", message: "\(error); \(hint)")
        }
    }

    private static func describe(_ members: [SyncShareMember]) -> String {
        members.isEmpty ? "none" : members.map { "\($0.account) (\($0.role.rawValue))" }.joined(separator: ", ")
    }

    /// `device` writes `body` live; prints the change set that each of `others` got (or, with
    /// none, its own) and the last one's screen.
    private static func edit(
        _ title: String, on device: DemoDevice, seenBy others: [DemoDevice], _ body: @escaping @Sendable (Database) throws -> Void
    ) async throws {
        print("▶ \(title)")
        let started = ContinuousClock.now
        try await device.write(body)
        let own = try await device.nextChangeSet()
        if others.isEmpty { print("  \(device.name): \(own)") }
        for other in others {
            let changeSet = try await other.nextChangeSet()
            print(
                "  \(other.name): \(changeSet) arrived \((ContinuousClock.now - started).millisecondsText) ms after \(device.name)'s write began"
            )
        }
        printScreen(of: others.last ?? device)
    }

    /// B edits a note's text while offline and A its color; once B is back, each device has
    /// both edits: the merge keeps the latest write of each column.
    private static func offlineEdits(_ a: DemoDevice, _ b: DemoDevice, note id: String) async throws {
        print("▶ B goes offline and renames \"Buy milk\" to \"Buy oat milk\"; meanwhile A colors it red")
        await b.goOffline()
        try await b.write { db in try db.execute(sql: "UPDATE note SET text = 'Buy oat milk' WHERE id = ?", arguments: [id]) }
        _ = try await b.nextChangeSet()
        try await a.write { db in try db.execute(sql: "UPDATE note SET color = 'red' WHERE id = ?", arguments: [id]) }
        _ = try await a.nextChangeSet()
        print("▶ B comes back online")
        b.goOnline()
        print("  B: \(try await b.nextChangeSet()) · A: \(try await a.nextChangeSet()); each kept the other's column")
        printScreen(of: a)
    }

    private static func printScreen(of device: DemoDevice) {
        print("  \(device.name)'s screen:")
        for line in device.screen { print("    \(line)") }
    }

    /// The device's lists and notes as text, in key order: equal texts are equal contents.
    private static func dump(_ store: Store) throws -> [String] {
        try store.read { db in
            let lists = try db.fetchRows(sql: "SELECT quote(id) || '|' || quote(name) FROM note_list ORDER BY id")
            let notes = try db.fetchRows(
                sql: "SELECT quote(id) || '|' || quote(text) || '|' || quote(color) || '|' || quote(list_id) FROM note ORDER BY id")
            return (lists + notes).map { row in row[0].textValue ?? "\(row[0])" }
        }
    }
}
#else
/// The demo's sync scene in a `store` built without the SyncCommands trait: `store demo`
/// refuses --server before it starts (`DemoSyncInstructions.requireScene()`), as this does.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
enum DemoSyncScene {
    /// Throws the exit-2 failure that says how to build `store` with the scene.
    static func run(database: String, migrator: Migrator, server: URL, token: String, member: Member) async throws {
        try DemoSyncInstructions.requireScene()
    }
}
#endif
