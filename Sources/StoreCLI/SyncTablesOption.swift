// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation
import SQLiteStoreCore
import SQLiteStoreSync

/// The `--tables` a `store sync` subcommand opens its database with, recording them for sync.
struct SyncTablesOption: ParsableArguments {
    @Option(help: ArgumentHelp("The tables to sync.", valueName: "a,b"))
    var tables: String

    func validate() throws {
        guard !tableNames.isEmpty else { throw ValidationError("--tables names at least one table") }
    }

    /// The table names, trimmed.
    var tableNames: Set<String> {
        Set(tables.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// The database of `options`, which must exist, opened with sync of the tables: a usage
    /// failure for a table that cannot sync.
    func openStore(_ options: StoreOptions) throws -> Store {
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

    /// Opens the database of `options` with sync of the tables, runs `body` on it, and prints
    /// the database's subscriptions after it as the JSON document of `command`, or the failure.
    func runOnSubscriptions(
        _ command: String, options: StoreOptions, _ body: (Store, CommandOutput) throws -> Void
    ) throws {
        let output = CommandOutput(options)
        var report = SyncSubscriptionsReport()
        var failure: CommandFailure?
        do {
            let store = try openStore(options)
            defer { try? store.close() }
            try body(store, output)
            report = SyncSubscriptionsReport(try store.sync.subscriptions())
        } catch {
            failure = CommandFailure(error)
        }
        try output.finish(command, body: report, failure: failure)
    }
}
#endif
