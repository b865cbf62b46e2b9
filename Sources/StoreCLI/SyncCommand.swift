import ArgumentParser

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
            this account's data, memberships lists the roots other accounts share with it. Every \
            subcommand takes --server and --token, and --database (a sharing subcommand reads \
            it only to tell a text key from a BLOB one).

            Examples (each with --server URL --token TOKEN as well):
              store sync --database app.sqlite --tables lists,items
              store sync share --table lists --key groceries --with bob --as writer
              store sync members --table lists --key groceries
              store sync revoke --table lists --key groceries --from bob
              store sync memberships
            """,
        subcommands: [
            SyncRunCommand.self, SyncShareCommand.self, SyncRevokeCommand.self, SyncMembersCommand.self, SyncMembershipsCommand.self,
        ],
        defaultSubcommand: SyncRunCommand.self
    )
}
