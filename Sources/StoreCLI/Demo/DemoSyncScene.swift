import Foundation
import SQLiteStore

/// The demo's sync scene: two devices, each its own database file beside the demo's, share the
/// `note` table through a sync server. Their edits reach each other live, change sets in hand;
/// edits made while one device is offline merge column by column when it comes back; and both
/// files end up holding the same notes.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
enum DemoSyncScene {
    /// Runs the scene with devices `database` with `.device-a` and `.device-b` before its
    /// extension, migrated by `migrator`, against `server`.
    static func run(database: String, migrator: Migrator, server: URL, token: String) async throws {
        let base = (database as NSString).deletingPathExtension
        var devices: [DemoDevice] = []
        do {
            for name in ["A", "B"] {
                let path = base + ".device-\(name.lowercased()).sqlite"
                devices.append(try await DemoDevice(name: name, path: path, migrator: migrator, server: server, token: token))
            }
            try await play(devices[0], devices[1], server: server)
        } catch {
            for device in devices { await device.close() }
            throw error
        }
        for device in devices { await device.close() }
    }

    private static func play(_ a: DemoDevice, _ b: DemoDevice, server: URL) async throws {
        print("sync: devices A (\(a.store.path)) and B (\(b.store.path)) share the table note through \(server)")
        print("  A caught up: pulled \(a.caughtUp.pulled) changes; B caught up: pulled \(b.caughtUp.pulled)")
        a.goOnline()
        b.goOnline()

        let earlier = a.notes.map(\.id)
        if !earlier.isEmpty {
            try await edit("A clears the \(earlier.count) notes of an earlier run", on: a, seenBy: b) { db in
                for id in earlier { try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [id]) }
            }
        }
        let (milk, call, plants) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        try await edit("A adds three notes", on: a, seenBy: b) { db in
            for (id, text, color) in [(milk, "Buy milk", "yellow"), (call, "Call Ana", "blue"), (plants, "Water plants", "green")] {
                try db.execute(sql: "INSERT INTO note (id, text, color) VALUES (?, ?, ?)", arguments: [id, text, color])
            }
        }
        try await edit("B renames \"Call Ana\" to \"Call Ana at 5\"", on: b, seenBy: a) { db in
            try db.execute(sql: "UPDATE note SET text = 'Call Ana at 5' WHERE id = ?", arguments: [call])
        }
        try await offlineEdits(a, b, note: milk)
        try await edit("A deletes \"Water plants\"", on: a, seenBy: b) { db in
            try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [plants])
        }
        let (notesOfA, notesOfB) = (try dump(a.store), try dump(b.store))
        print(
            notesOfA == notesOfB
                ? "sync: A and B hold the same \(notesOfB.count) notes, byte for byte."
                : "sync: A and B differ: A holds \(notesOfA), B holds \(notesOfB)")
    }

    /// `device` writes `body` live; prints the change set its list and then `other`'s list got.
    private static func edit(
        _ title: String, on device: DemoDevice, seenBy other: DemoDevice, _ body: @escaping @Sendable (Database) throws -> Void
    ) async throws {
        print("▶ \(title)")
        let started = ContinuousClock.now
        try await device.write(body)
        _ = try await device.nextChangeSet()
        let changeSet = try await other.nextChangeSet()
        print(
            "  \(other.name): \(changeSet) arrived \((ContinuousClock.now - started).millisecondsText) ms after \(device.name)'s write began"
        )
        printNotes(of: other)
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
        printNotes(of: a)
    }

    private static func printNotes(of device: DemoDevice) {
        for note in device.notes { print("    \(note.line)") }
    }

    /// The device's notes as text, in key order: equal texts are equal contents.
    private static func dump(_ store: Store) throws -> [String] {
        try store.read { db in
            try db.fetchRows(sql: "SELECT quote(id) || '|' || quote(text) || '|' || quote(color) FROM note ORDER BY id").map { row in
                if case .text(let text) = row[0] { text } else { "\(row[0])" }
            }
        }
    }
}
