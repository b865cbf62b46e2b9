// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// `store sync memberships`: the shares of other accounts that this account is a member of.
struct SyncMembershipsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memberships",
        abstract: "List the root rows other accounts share with this account, with their owners and this account's role.",
        discussion: """
            A server without sharing has none to list.

            Example: store sync memberships --database app.sqlite \
            --server https://sync.example.com --token "$TOKEN"
            """
    )

    @OptionGroup var options: StoreOptions

    @OptionGroup var serverOptions: SyncServerOptions

    func run() async throws {
        let request = SyncSharingRequest(options: options, server: serverOptions)
        try await request.run("sync memberships", empty: SyncMembershipsReport()) { client, _, output in
            let shares = try await client.memberships()
            output.say(shares.isEmpty ? "member of no shares" : "member of \(shares.count) share\(shares.count == 1 ? "" : "s"):")
            for share in shares {
                let owner = EscapedText.escaping(share.owner, quotes: false)
                output.say("  \(owner)'s \(SyncRootRow(table: share.table, key: share.key)) as \(share.role.rawValue)")
            }
            return SyncMembershipsReport(shares: shares)
        }
    }
}

/// The JSON fields of `sync memberships`.
struct SyncMembershipsReport: Encodable {
    /// The shares, each with its name, owner, root table, root key and this account's role.
    var shares: [SyncMembership] = []
}
#endif
