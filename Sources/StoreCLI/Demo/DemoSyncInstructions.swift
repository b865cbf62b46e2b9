import Foundation

/// What `store demo` prints instead of its sync scene when no server is given: whether
/// PostgreSQL is installed, how to start a sync server on it that shares lists of notes, and
/// how to make the two people's tokens.
enum DemoSyncInstructions {
    /// The options of `sync-server` that the scene needs: it syncs notes and their lists, and
    /// lists are share roots with their notes under them.
    static let serverOptions = "--tables note,note_list --share-roots note_list --share-paths note.list_id=note_list"

    /// The instructions, for a server that reads the migrations in `migrations`.
    static func text(migrations: String) -> String {
        let postgres =
            postgreSQLTools().map { "PostgreSQL is installed (\($0.path))" }
            ?? "PostgreSQL is not installed: install it first (Debian: apt-get install postgresql; macOS: brew install postgresql)"
        let database = "postgres://USER@127.0.0.1/store_demo"
        return """
            sync: the sync scene needs a sync server, which keeps its state in PostgreSQL, and two people's tokens; no --server was given.
              \(postgres). Then, with a database URL your PostgreSQL accepts, from the repository's root:
              createdb store_demo
              swift run --package-path Server sync-server add-token --postgres \(database) --account ana
              swift run --package-path Server sync-server add-token --postgres \(database) --account ben
              swift run --package-path Server sync-server --postgres \(database) --port 8080 --migrations \(migrations) \(serverOptions)
              swift run --package-path Server store demo --server http://127.0.0.1:8080 --token TOKEN_A --second-account ben --second-token TOKEN_B
                (TOKEN_A and TOKEN_B: what add-token printed for ana and for ben; the Server package builds store with the scene, on the server's own build)
            """
    }

    /// Throws the exit-2 failure that says how to build `store` with the sync scene, when this
    /// build has none (`SyncBuild`).
    static func requireScene() throws {
        try SyncBuild.require(
            "the demo's sync scene (--server)",
            example: "store demo --server URL --token TOKEN_A --second-account ACCOUNT --second-token TOKEN_B")
    }

    /// The folder holding PostgreSQL's `createdb`, if any: on `PATH`, or where Debian's and
    /// Homebrew's packages put it.
    static func postgreSQLTools() -> URL? {
        let manager = FileManager.default
        var folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let debian = (try? manager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        folders += debian.sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" }
        folders += ["/opt/homebrew/bin", "/usr/local/bin"]
        return folders.first { manager.isExecutableFile(atPath: "\($0)/createdb") }.map { URL(fileURLWithPath: $0) }
    }
}
