// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// `store sync members`: the accounts a root row of this account's data is shared with.
struct SyncMembersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "List the accounts a root row of this account's data is shared with, and their roles.",
        discussion: """
            Exit codes: as store sync share (HTTP 403: not a root of this account's data).

            Example: store sync members --database app.sqlite --table lists --key groceries \
            --server https://sync.example.com --token "$TOKEN"
            """
    )

    @OptionGroup var options: StoreOptions

    @OptionGroup var serverOptions: SyncServerOptions

    @OptionGroup var root: SyncRootOptions

    func run() async throws {
        let request = SyncSharingRequest(options: options, server: serverOptions)
        try await request.run("sync members", root: root, empty: SyncMembersReport()) { client, row, output in
            SyncMembersReport(row, try await client.members(table: row.table, key: DatabaseValue(row.key)), output: output)
        }
    }
}
#endif
