// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// `store sync revoke`: ends another account's membership of a root row of this account's data.
struct SyncRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke another account's membership of a root row of this account's data.",
        discussion: """
            The member's devices remove the root and every row under it the next time they \
            sync (live ones at once), without deleting anything on the server. Prints the \
            root's members.

            Exit codes: as store sync share.

            Example: store sync revoke --database app.sqlite --table lists --key groceries \
            --from bob --server https://sync.example.com --token "$TOKEN"
            """
    )

    @OptionGroup var options: StoreOptions

    @OptionGroup var serverOptions: SyncServerOptions

    @OptionGroup var root: SyncRootOptions

    @Option(name: .customLong("from"), help: ArgumentHelp("The member account.", valueName: "account"))
    var account: String

    func run() async throws {
        let request = SyncSharingRequest(options: options, server: serverOptions)
        try await request.run("sync revoke", root: root, member: account, empty: SyncMembersReport()) { client, row, output in
            let members = try await client.revoke(table: row.table, key: DatabaseValue(row.key), from: account)
            output.say("revoked the membership of \(EscapedText.escaping(account, quotes: false)) in \(row)")
            return SyncMembersReport(row, members, output: output)
        }
    }
}
#endif
