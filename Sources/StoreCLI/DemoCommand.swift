import ArgumentParser
import Foundation
import SQLiteStore

/// `store demo`: the whole stack on a small to-do app, in the terminal.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a short scripted session of a small app built on the library, or type your own edits.",
        discussion: """
            Creates or reuses the database (demo.sqlite by default), applies the migrations \
            (the Migrations folder, or the example schema built into the command when there \
            is no such folder), fills a list called Demo, and edits it through a command \
            while a list view over a fetched data source of its items, sectioned by category, applies each change set \
            and a view model follows one item. Then a second list joins, the items of both are \
            shown sectioned by their list's name, and renaming a list moves its items live, \
            while a view model follows one of them and its list's name. Ends by itself with a summary.

            With --server and --token, a sync scene follows: two devices, each its own database \
            file beside the demo's (NAME.device-a.sqlite and NAME.device-b.sqlite), share the \
            note table through that sync server (see sync-server in Server/): edits reach the \
            other device live, and edits made offline merge column by column. Without them, \
            the demo says how to start a server.

            --interactive reads edits instead: add CATEGORY TITLE, edit ID TITLE, \
            move ID CATEGORY [POSITION], done ID, delete ID, list, quit.

            Example: store demo --database /tmp/demo.sqlite
            """
    )

    @Option(help: ArgumentHelp("The database file, created if needed.", valueName: "path"))
    var database = "demo.sqlite"

    @Option(help: ArgumentHelp("The folder of migration files; the built-in example schema when it does not exist.", valueName: "dir"))
    var migrations = "Migrations"

    @Flag(help: "Read edits from standard input instead of running the script.")
    var interactive = false

    @Option(help: ArgumentHelp("A sync server's base URL, for the sync scene.", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("The bearer token `sync-server add-token` printed.", valueName: "token"))
    var token: String?

    func validate() throws {
        guard (server == nil) == (token == nil) else { throw ValidationError("--server and --token go together") }
        if let server { _ = try URL(syncServer: server) }
    }

    func run() async throws {
        do {
            // The demo's view model is a `StoreViewModel`; the rest of `store` runs on the package's floor.
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
                throw CommandFailure(status: .failed, kind: "unavailable", message: "store demo needs macOS 15 or later")
            }
            try await demo()
        } catch {
            let failure = CommandFailure(error)
            CommandOutput.printError("error: \(failure.report.message)")
            throw ExitCode(failure.status.rawValue)
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @MainActor private func demo() async throws {
        let started = ContinuousClock.now
        let store = try StoreOptions.parse(["--database", database]).openStore(ifMissing: .create)
        let hasFolder = FileManager.default.fileExists(atPath: migrations)
        let migrator = try hasFolder ? Migrator(folder: migrations) : DemoMigrations.migrator()
        let applied = try migrator.migrate(store)
        print(
            "database \(database): \(applied.isEmpty ? "schema up to date" : "applied \(applied.count) migration\(applied.count == 1 ? "" : "s")") "
                + "(\(hasFolder ? "from \(migrations)/" : "built-in example schema"))")
        let seed = try await DemoSeed.plant(in: store)
        let session = try DemoSession(
            store: store, request: DemoItem.sectionedByCategory(inList: seed.listID), listID: seed.listID,
            watchedItemID: seed.ids["Milk"] ?? 0)
        print("list \"Demo\", sectioned by category; the view model follows item #\(seed.ids["Milk"] ?? 0) (Milk)")
        print(DemoChangeMarks.legend)
        session.printState()
        if interactive {
            await DemoPrompt.run(session)
        } else {
            for edit in DemoSeed.script(ids: seed.ids) { await session.perform(edit) }
            try await DemoRenameScene.run(in: store, besideList: seed.listID)
        }
        session.stop()
        if let server, let token {
            try await DemoSyncScene.run(database: database, migrator: migrator, server: try URL(syncServer: server), token: token)
        } else {
            print(DemoSyncInstructions.text(migrations: hasFolder ? migrations : DemoMigrations.folder?.path ?? "Migrations"))
        }
        print("done in \((ContinuousClock.now - started).millisecondsText) ms: \(session.summary)")
    }
}
