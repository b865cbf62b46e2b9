import Foundation
import SyncServerHarness
import Testing

/// `store sync` and `store demo`'s sync scene, the root package's commands, against a server:
/// they need the `store` binary that the root package's `swift test` (or `swift build`) made, as
/// `.ci/run` does first; `STORE_BINARY` names another.
@Suite("store sync", .serialized, .timeLimit(.minutes(2)))
struct StoreSyncCommandTests {
    /// The root package's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["STORE_BINARY"] { return URL(fileURLWithPath: path) }
        return root.appendingPathComponent(".build/debug/store")
    }()

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

    @Test(
        "store demo's sync scene: two files share notes through the server, live and after offline edits, and end equal; a second run clears the first's notes",
        .enabled(if: built))
    func demoSyncScene() async throws {
        let fixture = try ServerFixture()
        let migrations = Self.root.appendingPathComponent("Migrations")
        let server = try await SyncServerProcess(database: fixture.database, migrations: migrations, tables: ["note"])
        let token = try fixture.token(for: "demo")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [
            "demo", "--database", folder.appendingPathComponent("demo.sqlite").path, "--migrations", migrations.path, "--server",
            server.url.absoluteString, "--token", token,
        ]
        for run in 0..<2 {
            let demo = try store(arguments)
            #expect(demo.status == 0, "\(demo.output)\(demo.error)")
            let lines = demo.output.split(separator: "\n").map(String.init)
            let scene = Array(lines.drop { !$0.hasPrefix("sync: devices A (") })
            #expect(scene.contains { $0.hasPrefix("▶ A clears the 2 notes of an earlier run") } == (run == 1), "\(demo.output)")
            #expect(scene.filter { $0.contains(" arrived ") && $0.contains(" ms after ") }.count == (run == 0 ? 3 : 4), "\(demo.output)")
            #expect(scene.contains { $0.hasPrefix("  B: ChangeSet(") && $0.contains("· A: ChangeSet(") }, "\(demo.output)")
            #expect(scene.contains("    Buy oat milk · red"), "each device kept the other's column: \(demo.output)")
            #expect(scene.contains("sync: A and B hold the same 2 notes, byte for byte."), "\(demo.output)")
        }
        for device in ["a", "b"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("demo.device-\(device).sqlite").path))
        }
    }
}
