// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// `store sync subscriptions`: a database's subscriptions and how far each was read.
struct SyncSubscriptionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptions",
        abstract: "List a database's subscriptions, highest priority first, with the rows read and whether each is complete.",
        discussion: """
            Needs no server. Without subscriptions, the database syncs its account's whole data.

            Example: store sync subscriptions --database app.sqlite --tables lists,items
            """
    )

    @OptionGroup var options: StoreOptions
    @OptionGroup var tables: SyncTablesOption

    func run() async throws {
        try tables.runOnSubscriptions("sync subscriptions", options: options) { store, output in
            let subscriptions = try store.sync.subscriptions()
            output.say(subscriptions.isEmpty ? "no subscriptions: the whole data syncs" : "\(subscriptions.count) subscriptions:")
            for subscription in subscriptions { output.say("  \(subscription.id): \(SyncSubscriptionsReport.line(subscription))") }
        }
    }
}

/// The JSON fields of the subscription subcommands of `store sync`: the database's
/// subscriptions after the command.
struct SyncSubscriptionsReport: Encodable {
    /// One subscription.
    struct Entry: Encodable {
        let id: Int64
        let name: String
        let parameter: SyncWireValue?
        let priority: Int
        let rowsRead: Int
        let complete: Bool
    }

    var subscriptions: [Entry] = []

    init(_ subscriptions: [StoreSync.Subscription] = []) {
        self.subscriptions = subscriptions.map {
            Entry(
                id: $0.id, name: $0.name, parameter: $0.parameter?.wireValue, priority: $0.priority, rowsRead: $0.rowsRead,
                complete: $0.isComplete)
        }
    }

    /// `list 'groceries', priority 1: 120 rows read, complete`, on one line.
    static func line(_ subscription: StoreSync.Subscription) -> String {
        let parameter = subscription.parameter.map { " " + SyncKeyText.literal($0.wireValue) } ?? ""
        let state = subscription.isComplete ? "complete" : "to read at the next sync"
        return EscapedText.escaping(
            "\(subscription.name)\(parameter), priority \(subscription.priority): \(subscription.rowsRead) rows read, \(state)",
            quotes: false)
    }
}
#endif
