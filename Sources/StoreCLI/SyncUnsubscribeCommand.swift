// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation
import SQLiteStoreCore
import SQLiteStoreSync

/// `store sync unsubscribe`: ends one of a database's subscriptions, here only.
struct SyncUnsubscribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsubscribe",
        abstract: "End a subscription: the rows no other covers leave the database at once, and nothing is sent.",
        discussion: """
            Takes the --id that `store sync subscriptions` lists. Needs no server: the rows \
            leave this database only. Ending the last subscription makes the next sync read \
            the account's whole data again.

            Example: store sync unsubscribe --database app.sqlite --tables lists,items --id 2
            """
    )

    @OptionGroup var options: StoreOptions
    @OptionGroup var tables: SyncTablesOption

    @Option(help: "The subscription's id.")
    var id: Int64

    func run() async throws {
        try tables.runOnSubscriptions("sync unsubscribe", options: options) { store, output in
            guard try store.sync.subscriptions().contains(where: { $0.id == id }) else {
                throw CommandFailure(status: .usage, kind: "subscription", message: "no subscription \(id) in \(options.database)")
            }
            try store.sync.unsubscribe(id)
            let left = try store.sync.subscriptions().count
            output.say("ended subscription \(id); \(left == 0 ? "the next sync reads the whole data" : "\(left) left")")
        }
    }
}
#endif
