import Foundation
import SQLiteStoreCore
import SyncServerHarness

/// The benchmark's synced table: notes with a text key (a synced table's key must be unique
/// across devices), a title that orders the live list, a score and a body.
struct Note: StoreModel, Equatable {
    static let tableName = "notes"
    var id: String
    var title: String
    var score: Int64
    var body: String

    /// The tables every store and server of the benchmark syncs.
    static let syncedTables: Set<String> = ["notes"]

    /// The schema version of ``migration``.
    static let schemaVersion: Int64 = 1

    /// The only migration: version 1.
    static let migration = """
        CREATE TABLE notes(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '', score INTEGER NOT NULL DEFAULT 0, body TEXT);
        CREATE INDEX notes_by_title ON notes(title);
        """

    /// The `count` notes that `seed` makes, in key order of making: the same seed makes the same notes.
    static func generate(count: Int, seed: UInt64) -> [Note] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            Note(
                id: String(format: "%016llx%016llx", random.next(), random.next()), title: randomTitle(using: &random),
                score: Int64.random(in: 0..<1_000_000, using: &random), body: "body of a note, about sixty bytes long, like a short text")
        }
    }

    /// A title that sorts at a random place among the others.
    static func randomTitle(using random: inout SplitMix64) -> String {
        "title " + String(random.next() % 100_000_000)
    }
}
