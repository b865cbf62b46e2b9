import ArgumentParser
import Foundation
import SQLiteStore

/// `store sync`: syncs a database file with a sync server, once or live.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync a database file's tables with a sync server (see sync-server in Server/).",
        discussion: """
            Pushes the changes recorded for the --tables since the last sync, then pulls \
            other devices' changes and applies them. The tables need a TEXT or BLOB primary \
            key; the first sync records every row written after it, not the rows already there. \
            With --live it keeps syncing (pushing each commit, long-polling the server) until \
            SIGINT or SIGTERM (exit 0), retrying after network or server failures.

            Exit codes: 0 when synced (or stopped), 1 when the server refused (a bad token, \
            another schema version) or could not be reached, 2 for bad usage or a table that \
            cannot sync, 3 when the file is missing or not a database.

            Example: store sync --database app.sqlite --tables item,list \
            --server https://sync.example.com --token "$TOKEN"
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("The sync server's base URL.", valueName: "url"))
    var server: String

    @Option(help: ArgumentHelp("The bearer token `sync-server add-token` printed.", valueName: "token"))
    var token: String

    @Option(help: ArgumentHelp("The tables to sync.", valueName: "a,b"))
    var tables: String

    @Flag(help: "Keep syncing until SIGINT or SIGTERM.")
    var live = false

    func validate() throws {
        _ = try URL(syncServer: server)
        guard !tableNames.isEmpty else { throw ValidationError("--tables names at least one table") }
    }

    private var tableNames: Set<String> {
        Set(tables.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    func run() async throws {
        let output = CommandOutput(options)
        var report = SyncReport()
        var failure: CommandFailure?
        do {
            let store = try open()
            defer { try? store.close() }
            let client = SyncClient(store: store, server: try URL(syncServer: server), token: token)
            let progress = try await client.synchronize()
            report = SyncReport(pushed: progress.pushed, pulled: progress.pulled)
            output.say("pushed \(progress.pushed) changes, pulled \(progress.pulled)")
            if live { try await runLive(client) }
        } catch is CancellationError {
        } catch let error as SyncServerError {
            failure = CommandFailure(status: .failed, kind: "sync", message: error.description)
        } catch {
            failure = CommandFailure(error)
        }
        try output.finish("sync", body: report, failure: failure)
    }

    private func open() throws -> Store {
        let file = try DatabaseFile(path: options.database)
        guard file.exists else {
            throw CommandFailure(status: .databaseUnavailable, kind: "database", message: "no database at \(options.database)")
        }
        var configuration = StoreConfiguration()
        configuration.busyTimeout = .seconds(60)
        configuration.sync = SyncConfiguration(tables: tableNames)
        do {
            return try Store(path: options.database, configuration: configuration)
        } catch let error as StoreError where error.code == .misuse {
            throw CommandFailure(status: .usage, kind: "sync", message: error.message, storeError: error)
        } catch {
            return try file.openStore(at: options.database, configuration: configuration)
        }
    }

    /// Syncs until SIGINT or SIGTERM.
    private func runLive(_ client: SyncClient) async throws {
        let session = Task { try await client.run() }
        let signals = [SIGINT, SIGTERM].map { signal in
            Foundation.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal)
            source.setEventHandler { session.cancel() }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        try await session.value
    }
}

/// The JSON fields of `sync`.
struct SyncReport: Encodable {
    /// Changes made here that the server now has.
    var pushed = 0
    /// Other devices' changes received.
    var pulled = 0
}
