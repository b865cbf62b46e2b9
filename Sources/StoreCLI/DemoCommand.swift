import ArgumentParser
import Foundation
import SQLiteStoreCore

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

            With --server, --token, --second-account and --second-token, a sync scene follows: \
            two people, A (--token) and B (--second-account, --second-token), each on a device \
            with its own database file beside the demo's (NAME.person-a.sqlite and \
            NAME.person-b.sqlite), sync notes through that sync server (see sync-server in \
            Server/), started with \(DemoSyncInstructions.serverOptions). A shares a list of \
            notes with B; edits reach the other person live, and edits made offline merge \
            column by column; the server refuses B's edit once B is a reader; A revokes B, \
            and the list leaves B's screen. Without them, the demo says how to start a server \
            and make both tokens. The scene is in a store built with the SyncCommands trait, as \
            the sync server's package builds it: swift run --package-path Server store demo \
            --server …, or \(SyncBuild.buildCommand)\
            \(SyncBuild.isIncluded ? "" : " (this one was built without it)").

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

    @Option(help: ArgumentHelp("The bearer token `sync-server add-token` printed for A, who shares a list.", valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp("The account A shares the list with: B's, the name `add-token --account` gave.", valueName: "account"))
    var secondAccount: String?

    @Option(help: ArgumentHelp("The bearer token `sync-server add-token` printed for B's account.", valueName: "token"))
    var secondToken: String?

    func validate() throws {
        let given = [server, token, secondAccount, secondToken].filter { $0 != nil }.count
        guard given == 0 || given == 4 else {
            throw ValidationError("--server, --token, --second-account and --second-token go together (the sync scene shows two people)")
        }
        if let server { _ = try URL(syncServer: server) }
    }

    func run() async throws {
        do {
            // The demo's view model is a `StoreViewModel`; the rest of `store` runs on the package's floor.
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
                throw CommandFailure(status: .failed, kind: "unavailable", message: "store demo needs macOS 15 or later")
            }
            // Before anything runs: a store built without the SyncCommands trait has no sync scene.
            if server != nil { try DemoSyncInstructions.requireScene() }
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
        if let server, let token, let secondAccount, let secondToken {
            try await DemoSyncScene.run(
                database: database, migrator: migrator, server: try URL(syncServer: server), token: token,
                member: DemoSyncScene.Member(account: secondAccount, token: secondToken))
        } else {
            print(DemoSyncInstructions.text(migrations: hasFolder ? migrations : DemoMigrations.folder?.path ?? "Migrations"))
        }
        print("done in \((ContinuousClock.now - started).millisecondsText) ms: \(session.summary)")
    }
}
