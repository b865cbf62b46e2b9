// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// `store sync share`: shares a root row of this account's data with another account, or
/// changes that account's role.
struct SyncShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share a root row of this account's data with another account as reader or writer, or change its role.",
        discussion: """
            The row is a row of one of the server's --share-roots tables that this account \
            has synced (pushed) to the server. The member's devices receive it and every row \
            under it (through the server's --share-paths), live; the server refuses a reader's \
            changes to them and stores a writer's. Prints the root's members.

            Exit codes: 0 when shared; 1 when the server refused (HTTP 403: not a root of this \
            account's data, or no such account; 400: not a root table, or this account itself; \
            404: a server without sharing) or could not be reached; 2 for bad usage; 3 when \
            the database is missing or not a database.

            Example: store sync share --database app.sqlite --table lists --key groceries \
            --with bob --as writer --server https://sync.example.com --token "$TOKEN"
            """
    )

    @OptionGroup var options: StoreOptions

    @OptionGroup var serverOptions: SyncServerOptions

    @OptionGroup var root: SyncRootOptions

    @Option(
        name: .customLong("with"),
        help: ArgumentHelp("The account to share with: the name `sync-server add-token --account` gave it.", valueName: "account"))
    var account: String

    @Option(name: .customLong("as"), help: ArgumentHelp("What the member may do.", valueName: "reader|writer"))
    var role: SyncRoleArgument

    func run() async throws {
        let request = SyncSharingRequest(options: options, server: serverOptions)
        try await request.run("sync share", root: root, member: account, empty: SyncMembersReport()) { client, row, output in
            let members = try await client.share(table: row.table, key: DatabaseValue(row.key), with: account, as: role.role)
            output.say("shared \(row) with \(EscapedText.escaping(account, quotes: false)) as \(role.rawValue)")
            return SyncMembersReport(row, members, output: output)
        }
    }
}

/// A member's role, as `--as` spells it.
enum SyncRoleArgument: String, ExpressibleByArgument, CaseIterable {
    case reader, writer

    /// The role.
    var role: SyncShareRole {
        switch self {
        case .reader: .reader
        case .writer: .writer
        }
    }
}

/// The JSON fields of `sync share`, `sync revoke` and `sync members`.
struct SyncMembersReport: Encodable {
    /// The root table.
    var table: String?
    /// The root row's key, as the sync protocol spells a value (`{"text": "groceries"}`).
    var key: SyncWireValue?
    /// The share's name on the server (``SyncMembership/share`` for its members).
    var share: String?
    /// The members, by account name.
    var members: [SyncShareMember] = []

    init() {}

    /// The report of `members` of `row`, printed.
    init(_ row: SyncRootRow, _ members: SyncShareMembers, output: CommandOutput) {
        table = row.table
        key = row.key
        share = members.share
        self.members = members.members
        output.say("members of \(row):" + (members.members.isEmpty ? " none" : ""))
        for member in members.members { output.say("  \(EscapedText.escaping(member.account, quotes: false)) (\(member.role.rawValue))") }
    }
}
#endif
