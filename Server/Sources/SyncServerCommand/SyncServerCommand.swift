import ArgumentParser
import Foundation
import Logging
import PostgresNIO
import StoreSyncServer

/// `sync-server`: serves sync for SQLiteStore devices from a PostgreSQL database, or makes tokens.
@main
struct SyncServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-server",
        abstract: "Sync SQLiteStore devices through PostgreSQL.",
        discussion: "TLS is the deployment's concern: put a reverse proxy in front of the server.",
        subcommands: [Serve.self, AddToken.self],
        defaultSubcommand: Serve.self)
}

/// The database option every subcommand takes.
struct DatabaseOption: ParsableArguments {
    @Option(help: "The PostgreSQL database: postgres://user[:password]@host[:port]/database.")
    var postgres: String

    func configuration() throws -> PostgresClient.Configuration {
        do {
            return try PostgresClient.Configuration(url: postgres)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

/// Serves pushes and pulls until SIGTERM or SIGINT.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve sync requests (the default).")

    @OptionGroup var database: DatabaseOption
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one.") var port: Int
    @Option(help: "The schema version (the apps' highest migration) whose changes the server accepts.")
    var schemaVersion: Int64 = 0
    @Option(help: "Seconds a change's clock may run ahead of the server's before its push is refused.")
    var maxClockSkew: Int64 = 3600

    func run() async throws {
        var configuration = SyncServerConfiguration(
            postgres: try database.configuration(), host: host, port: port, schemaVersion: schemaVersion)
        configuration.maxClockSkew = .seconds(maxClockSkew)
        var logger = Logger(label: "sync-server")
        logger.logLevel = .warning
        try await SyncServer(configuration: configuration, logger: logger).run { [host] port in
            // One line that scripts and tests read to learn the port, written at once.
            FileHandle.standardOutput.write(Data("sync-server listening on \(host):\(port)\n".utf8))
        }
    }
}

/// Prints a new bearer token for an account (created if new).
struct AddToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-token", abstract: "Make a bearer token for an account and print it (only its hash is kept).")

    @OptionGroup var database: DatabaseOption
    @Option(help: "The account's name.") var account: String

    func run() async throws {
        var logger = Logger(label: "sync-server")
        logger.logLevel = .warning
        print(try await SyncServer.addToken(account: account, postgres: try database.configuration(), logger: logger))
    }
}
