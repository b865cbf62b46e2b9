// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// `store sync [run]`: syncs a database file with a sync server, once or live, and reports
/// the changes the server refused.
struct SyncRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Sync a database file's tables with a sync server, once or live (the default subcommand of store sync).",
        discussion: """
            Pushes the changes recorded for the --tables since the last sync, then pulls \
            other devices' changes and applies them. The tables need a TEXT or BLOB primary \
            key; the first sync records every row written after it, not the rows already there. \
            With --live it keeps syncing (pushing each commit, long-polling the server) until \
            SIGINT or SIGTERM (exit 0), retrying after network or server failures.

            A server started with --share-roots refuses the changes this account may not make \
            (to a row shared with it as reader, to a row of another account's data that is not \
            shared with it, or moving a row between two accounts' data): their rows hold the \
            server's state again, and the command lists the refused changes by table, key and \
            reason (readOnly, notShared, crossesAccounts); with --live, when it stops.

            Exit codes: 0 when synced (or stopped), refused changes included; 1 when the \
            server refused the request (a bad token, another schema version) or could not be \
            reached, 2 for bad usage or a table that cannot sync, 3 when the file is missing \
            or not a database.

            Example: store sync --database app.sqlite --tables item,list \
            --server https://sync.example.com --token "$TOKEN"
            """
    )

    @OptionGroup var options: StoreOptions

    @OptionGroup var serverOptions: SyncServerOptions

    @OptionGroup var tables: SyncTablesOption

    @Flag(help: "Keep syncing until SIGINT or SIGTERM.")
    var live = false

    func run() async throws {
        let output = CommandOutput(options)
        var report = SyncReport()
        var failure: CommandFailure?
        do {
            let store = try tables.openStore(options)
            defer { try? store.close() }
            let client = SyncClient(store: store, server: try serverOptions.url(), token: serverOptions.token)
            let progress = try await client.synchronize()
            let refusals = Array(try store.sync.refusedChanges().suffix(progress.refused))
            report = SyncReport(pushed: progress.pushed, pulled: progress.pulled, refusals: refusals)
            output.say(
                "pushed \(progress.pushed) changes, pulled \(progress.pulled)"
                    + (refusals.isEmpty ? "" : "; the server refused \(refusals.count) (their rows hold its state again):"))
            for line in SyncRefusalLines.lines(refusals) { output.say("  " + line) }
            if live {
                // The first sync's report, before the session: a log that follows the output shows it now.
                fflush(nil)
                let before = try store.sync.refusedChanges().count
                var ended: (any Error)?
                do {
                    try await runLive(client)
                } catch is CancellationError {
                } catch {
                    ended = error
                }
                let later = Array(try store.sync.refusedChanges().dropFirst(before))
                report.refusals += later
                if !later.isEmpty {
                    let changes = later.count == 1 ? "1 change" : "\(later.count) changes"
                    output.say("the server refused \(changes) while live (their rows hold its state again):")
                    for line in SyncRefusalLines.lines(later) { output.say("  " + line) }
                }
                if let ended { throw ended }
            }
        } catch is CancellationError {
        } catch let error as SyncServerError {
            failure = CommandFailure(status: .failed, kind: "sync", message: error.description)
        } catch {
            failure = CommandFailure(error)
        }
        try output.finish("sync", body: report, failure: failure)
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
    /// The changes made here that the server refused during this command, oldest first.
    var refusals: [SyncRefusal] = []

    private enum Key: String, CodingKey { case pushed, pulled, refused, refusals }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(pushed, forKey: .pushed)
        try container.encode(pulled, forKey: .pulled)
        try container.encode(refusals.count, forKey: .refused)
        try container.encode(refusals, forKey: .refusals)
    }
}
#endif
