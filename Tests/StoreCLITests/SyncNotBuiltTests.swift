// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only. A
// `store` built with the SyncCommands trait has the sync commands, tested by the Server package.
#if (os(Linux) || os(macOS)) && !SyncCommands
import Foundation
import Testing

/// `store` built without the SyncCommands trait, as `swift run store demo` builds it: `store
/// sync` and the demo's sync scene exist, and fail with exit 2, saying how to build them.
@Suite("store without the SyncCommands trait")
struct SyncNotBuiltTests {
    @Test(
        "store sync, whatever follows it, exits 2 on one line naming the commands that build it, and touches no file",
        arguments: [
            ["sync"],
            ["sync", "--database", "app.sqlite", "--tables", "item", "--server", "http://127.0.0.1:8080", "--token", "t"],
            ["sync", "share", "--table", "lists", "--key", "groceries", "--with", "bob", "--as", "writer"],
            ["sync", "subscriptions", "--database", "app.sqlite", "--tables", "item", "--bogus"],
        ])
    func syncCommand(arguments: [String]) async throws {
        let folder = try WatchTestFolder()
        let result = try await StoreBinary.start(arguments, in: folder.url).finish()
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.output.isEmpty, "\(result)")
        #expect(result.error.split(whereSeparator: \.isNewline).count == 1, "\(result)")
        #expect(result.error.hasPrefix("error: store sync is not in this build of store"), "\(result)")
        #expect(result.error.contains("swift run --package-path Server store sync …"), "\(result)")
        #expect(result.error.contains("swift build --traits SyncCommands --product store"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { !$0.hasPrefix(".std") }.isEmpty)
    }

    @Test("store sync --json says it in a JSON document, with exit 2")
    func syncJSON() async throws {
        let folder = try WatchTestFolder()
        let result = try await StoreBinary.start(["sync", "--tables", "item", "--json"], in: folder.url).finish()
        #expect(result.exitCode == 2, "\(result)")
        let document = try result.json()
        #expect(document["command"] as? String == "sync" && document["exitCode"] as? Int == 2, "\(result)")
        let error = try #require(document["error"] as? [String: Any], "\(result)")
        #expect(error["kind"] as? String == "unavailable", "\(result)")
        #expect((error["message"] as? String)?.contains("--traits SyncCommands") == true, "\(result)")
    }

    @Test("store demo --server exits 2 before anything runs, naming the command that runs the sync scene")
    func demoSyncScene() async throws {
        let folder = try WatchTestFolder()
        let result = try await StoreBinary.start(
            ["demo", "--server", "http://127.0.0.1:8080", "--token", "t", "--second-account", "ben", "--second-token", "u"],
            in: folder.url
        ).finish()
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.output.isEmpty, "\(result)")
        #expect(result.error.split(whereSeparator: \.isNewline).count == 1, "\(result)")
        #expect(result.error.hasPrefix("error: the demo's sync scene (--server) is not in this build of store"), "\(result)")
        #expect(result.error.contains("swift run --package-path Server store demo --server URL"), "\(result)")
        #expect(result.error.contains("swift build --traits SyncCommands --product store"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("demo.sqlite").path))
    }
}
#endif
