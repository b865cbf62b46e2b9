import Foundation
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// The sharing declaration a sync server takes: spelled on its command line, checked against
/// the synced schema, refused with a reason when it does not fit.
@Suite("Sync sharing declaration")
struct SyncSharingDeclarationTests {
    /// Lists, items in a list (`list_id`) or under another item (`parent`), and notes.
    static func schema() throws -> SyncSchema {
        var migrator = Migrator()
        try migrator.add(
            Migration(version: 1, name: "lists") { db in
                try db.execute(
                    script: """
                        CREATE TABLE lists(id TEXT PRIMARY KEY, title TEXT);
                        CREATE TABLE items(id TEXT PRIMARY KEY, list_id TEXT REFERENCES lists(id), parent TEXT REFERENCES items(id));
                        CREATE TABLE notes(id TEXT PRIMARY KEY, body TEXT);
                        """)
            })
        return try SyncSchema(tables: ["lists", "items", "notes"], migrator: migrator)
    }

    @Test("A declaration fits the schema: roots, paths in order, table names folded")
    func declaration() throws {
        let sharing = SyncSharing(roots: ["lists"], paths: [.init(table: "items", column: "list_id", parent: "lists")])
        try sharing.check(against: Self.schema())
        #expect(sharing.shares("Items") && sharing.shares("lists") && !sharing.shares("notes"))
        let nested = SyncSharing(
            roots: ["Lists"],
            paths: [try .init(parsing: "items.list_id=lists"), try .init(parsing: "ITEMS.parent=items")])
        try nested.check(against: Self.schema())
        #expect(nested.paths(of: "items").map(\.column) == ["list_id", "parent"])
        #expect(nested.roots == ["lists"])
    }

    @Test("A path spelled otherwise than table.column=parent is refused")
    func badSpellings() {
        for spelled in ["items.list_id", "items=lists", ".list_id=lists", "items.=lists", "items.list_id=", "a.b=c=d"] {
            #expect(throws: SyncSharingError.self, "\(spelled)") { try SyncSharing.Path(parsing: spelled) }
        }
    }

    @Test("Roots and paths that do not fit the schema are refused, naming what is wrong")
    func misfits() throws {
        let schema = try Self.schema()
        let misfits: [(SyncSharing, String)] = [
            (SyncSharing(roots: []), "at least one root"),
            (SyncSharing(roots: ["folders"]), "folders"),
            (SyncSharing(roots: ["lists"], paths: [.init(table: "items", column: "missing", parent: "lists")]), "missing"),
            (SyncSharing(roots: ["lists"], paths: [.init(table: "lists", column: "title", parent: "lists")]), "roots are not nested"),
            (SyncSharing(roots: ["lists"], paths: [.init(table: "items", column: "parent", parent: "notes")]), "notes"),
            (
                SyncSharing(
                    roots: ["lists"],
                    paths: [
                        .init(table: "items", column: "list_id", parent: "lists"),
                        .init(table: "items", column: "list_id", parent: "lists"),
                    ]),
                "more than one path"
            ),
        ]
        for (sharing, reason) in misfits {
            let error = #expect(throws: SyncSharingError.self) { try sharing.check(against: schema) }
            #expect(error?.description.contains(reason) == true, "\(error?.description ?? "no error") names \(reason)")
        }
    }
}
