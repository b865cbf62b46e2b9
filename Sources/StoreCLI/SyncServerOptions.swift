// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation

/// The options of every `store sync` command: the sync server and the account's token.
struct SyncServerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The sync server's base URL.", valueName: "url"))
    var server: String

    @Option(help: ArgumentHelp("The bearer token `sync-server add-token` printed.", valueName: "token"))
    var token: String

    func validate() throws {
        _ = try URL(syncServer: server)
    }

    /// The server's URL, checked by `validate()`.
    func url() throws -> URL { try URL(syncServer: server) }
}
#endif
