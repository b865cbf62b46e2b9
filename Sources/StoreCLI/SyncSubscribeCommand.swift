// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation
import SQLiteStoreCore
import SQLiteStoreSync

/// `store sync subscribe`: subscribes a database to one of the server's subsets.
struct SyncSubscribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Subscribe a database to one of the subsets a server declares (--subscriptions); the next sync reads its rows.",
        discussion: """
            A database without subscriptions syncs its account's whole data. With subscriptions, \
            it holds only the rows they cover: the next `store sync` reads each new one, the \
            highest --priority first, and the rows none covers leave it. Subscribing again to a \
            name and parameter changes its priority. Needs no server.

            Example: store sync subscribe --database app.sqlite --tables lists,items \
            --to list --parameter groceries --priority 1
            """
    )

    @OptionGroup var options: StoreOptions
    @OptionGroup var tables: SyncTablesOption

    @Option(help: ArgumentHelp("The subset's name, as the server declares it.", valueName: "name"))
    var to: String

    @Option(help: ArgumentHelp("The subset's parameter: a root row's key, or the value a column holds.", valueName: "value"))
    var parameter: String?

    @Flag(help: "Take --parameter as an integer, not a text.")
    var integer = false

    @Option(help: "Its priority: higher ones are read first.")
    var priority = 0

    func validate() throws {
        guard !to.isEmpty else { throw ValidationError("--to names a subset") }
        if integer {
            guard let parameter, Int64(parameter) != nil else { throw ValidationError("--integer takes an integer --parameter") }
        }
    }

    func run() async throws {
        try tables.runOnSubscriptions("sync subscribe", options: options) { store, output in
            let value: DatabaseValue? = parameter.map { integer ? .integer(Int64($0) ?? 0) : .text($0) }
            let subscription = try store.sync.subscribe(to: to, parameter: value, priority: priority)
            output.say("subscription \(subscription.id): \(SyncSubscriptionsReport.line(subscription))")
        }
    }
}
#endif
