import Foundation
import Testing

/// `store sync`, the root package's command, against a server: it needs the `store` binary that
/// the root package's `swift test` (or `swift build`) made, as `.ci/run` does first; `STORE_BINARY`
/// names another.
@Suite("store sync", .serialized, .timeLimit(.minutes(2)))
struct StoreSyncCommandTests {
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["STORE_BINARY"] { return URL(fileURLWithPath: path) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
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
}
