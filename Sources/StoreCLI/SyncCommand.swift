import ArgumentParser

#if SyncCommands
/// `store sync`: syncs a database file with a sync server (`run`, the default), and shares
/// root rows with other accounts.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync a database file's tables with a sync server (see sync-server in Server/), and share rows with other accounts.",
        discussion: """
            Without a subcommand, store sync runs `store sync run`: it pushes and pulls the \
            --tables, once or --live, and lists the changes the server refused. A server started \
            with --share-roots and --share-paths shares root rows (a list and the rows under it) \
            between accounts: share, revoke and members manage the members of a root row of \
            this account's data, memberships lists the roots other accounts share with it. A \
            server started with --subscriptions lets a database sync only the subsets it \
            subscribes to: subscribe, unsubscribe and subscriptions manage them, in the \
            database only. The sharing subcommands take --server and --token, and --database \
            (read only to tell a text key from a BLOB one); the subscription ones --database \
            and --tables.

            Examples (each with --server URL --token TOKEN as well):
              store sync --database app.sqlite --tables lists,items
              store sync share --table lists --key groceries --with bob --as writer
              store sync members --table lists --key groceries
              store sync revoke --table lists --key groceries --from bob
              store sync memberships
              store sync subscribe --database app.sqlite --tables lists,items --to list --parameter groceries
            """,
        subcommands: [
            SyncRunCommand.self, SyncShareCommand.self, SyncRevokeCommand.self, SyncMembersCommand.self, SyncMembershipsCommand.self,
            SyncSubscribeCommand.self, SyncUnsubscribeCommand.self, SyncSubscriptionsCommand.self,
        ],
        defaultSubcommand: SyncRunCommand.self
    )
}
#else
/// `store sync` in a `store` built without the SyncCommands trait: it takes any arguments and
/// fails with exit 2, saying how to build `store` with its sync subcommands.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync a database file's tables with a sync server: not in this build (\(SyncBuild.buildCommand)).",
        discussion: """
            This store was built without the SyncCommands trait, which adds the sync client (on \
            Linux, AsyncHTTPClient and NIO) and so store sync and its subcommands (run, share, \
            revoke, members, memberships, subscribe, unsubscribe, subscriptions). From the \
            repository's root, run swift run --package-path Server store sync … (the sync \
            server's package builds store with them, on its own build of NIO), or build this \
            one with \(SyncBuild.buildCommand).
            """
    )

    @Argument(parsing: .captureForPassthrough, help: .hidden)
    var arguments: [String] = []

    func run() async throws {
        try CommandOutput(try StoreOptions.parse(arguments.contains("--json") ? ["--json"] : []))
            .finish("sync", body: [String: String](), failure: SyncBuild.missing("store sync", example: "store sync …"))
    }
}
#endif
