import Foundation
import SQLiteStore
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

/// Sharing and subscriptions on tables and columns named with capitals (`"Folders"`,
/// `"FolderID"`), declared to the server and named in requests as the schema spells them: a
/// shared folder reaches the member with its notes, the member's edit reaches the owner,
/// subscriptions to a folder and to a title cover what they say and end here only, and a
/// revocation removes the folder.
@Suite("Sharing with capitals in names", .serialized, .timeLimit(.minutes(2)))
struct SharingNameCaseTests {
    static let schema = """
        CREATE TABLE "Folders"("ID" TEXT PRIMARY KEY, "Title" TEXT NOT NULL DEFAULT '');
        CREATE TABLE "Notes"(
            "ID" TEXT PRIMARY KEY, "FolderID" TEXT REFERENCES "Folders"("ID") ON DELETE CASCADE, "Body" TEXT NOT NULL DEFAULT '');
        """
    static let tables: Set<String> = ["Folders", "Notes"]

    let fixture: ServerFixture
    let server: SyncServerProcess
    let alice: String
    let bob: String
    /// 0: alice's device; 1 and 2: bob's.
    let devices: SyncedStores

    init() async throws {
        fixture = try ServerFixture()
        let migrations = try MigrationsFolder.make("migrations-folders", files: ["0001_folders.sql": Self.schema])
        server = try await SyncServerProcess(
            database: fixture.database, port: 0, migrations: migrations, tables: Self.tables,
            options: [
                "--share-roots", "Folders", "--share-paths", "Notes.FolderID=Folders",
                "--subscriptions", "folder=root:Folders,titled=rows:Folders.Title",
            ])
        alice = try fixture.token(for: "alice")
        bob = try fixture.token(for: "bob")
        devices = try SyncedStores(count: 3, migrations: migrations, tables: Self.tables)
    }

    private func client(_ index: Int) -> SyncClient {
        SyncClient(store: devices.stores[index], server: server.url, token: index == 0 ? alice : bob)
    }

    private func sync(_ index: Int) async throws {
        let progress = try await client(index).synchronize()
        #expect(progress.refused == 0)
    }

    /// `table`'s rows on device `index`, each its columns' `quote()`s joined by `|`, by key.
    private func rows(_ index: Int, _ table: String) throws -> [String] {
        try devices.stores[index].read { db in
            let columns = try db.fetchRows(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
                .map { "quote(\(SQLIdentifier.quote(try $0.decode(String.self, column: "name"))))" }
            return try db.fetchRows(
                sql: "SELECT \(columns.joined(separator: " || '|' || ")) AS line FROM \(SQLIdentifier.quote(table)) ORDER BY \"ID\""
            ).map { try $0.decode(String.self, column: "line") }
        }
    }

    @Test("A shared folder, a member's edit, subscriptions to a folder and a title, and a revocation")
    func shareSubscribeRevoke() async throws {
        try await devices.stores[0].write { db in
            try db.execute(
                script: """
                    INSERT INTO "Folders"("ID", "Title") VALUES ('f1', 'Work'), ('f2', 'Home');
                    INSERT INTO "Notes"("ID", "FolderID", "Body") VALUES ('n1', 'f1', 'Plan'), ('n2', 'f1', 'Budget'), ('n3', 'f2', 'Keys');
                    """)
        }
        try await sync(0)
        let members = try await client(0).share(table: "Folders", key: .text("f1"), with: "bob", as: .writer)
        #expect(members.members == [SyncShareMember(account: "bob", role: .writer)])

        try await sync(1)
        #expect(try rows(1, "Folders") == ["'f1'|'Work'"])
        #expect(try rows(1, "Notes") == ["'n1'|'f1'|'Plan'", "'n2'|'f1'|'Budget'"])
        try await devices.stores[1].write { db in try db.execute(sql: #"UPDATE "Notes" SET "Body" = 'Plan B' WHERE "ID" = 'n1'"#) }
        try await sync(1)
        try await sync(0)
        #expect(try rows(0, "Notes") == ["'n1'|'f1'|'Plan B'", "'n2'|'f1'|'Budget'", "'n3'|'f2'|'Keys'"])

        // Bob's second device holds only what it subscribes to.
        let folder = try devices.stores[2].sync.subscribe(to: "folder", parameter: .text("f1"))
        try devices.stores[2].sync.subscribe(to: "titled", parameter: .text("Work"))
        try await sync(2)
        #expect(try rows(2, "Folders") == ["'f1'|'Work'"])
        #expect(try rows(2, "Notes") == ["'n1'|'f1'|'Plan B'", "'n2'|'f1'|'Budget'"])
        try await devices.stores[2].sync.unsubscribe(folder.id)
        #expect(try rows(2, "Folders") == ["'f1'|'Work'"], "the title's subscription covers the folder")
        #expect(try rows(2, "Notes") == [])
        #expect(try devices.stores[2].sync.pendingChanges().changes.isEmpty, "nothing of it is sent")

        try await client(0).revoke(table: "Folders", key: .text("f1"), from: "bob")
        try await sync(1)
        try await sync(2)
        #expect(try rows(1, "Folders") == [])
        #expect(try rows(1, "Notes") == [])
        #expect(try rows(2, "Folders") == [])
        try await sync(0)
        #expect(try rows(0, "Folders") == ["'f1'|'Work'", "'f2'|'Home'"], "nothing is deleted on the server")
    }
}
