import ArgumentParser
import Foundation
import Logging
import Metrics
import PostgresNIO
import Prometheus
import SQLiteStoreCore
import SQLiteStoreSync
import StoreSyncServer

/// `sync-server`: serves sync for SQLiteStore devices from a PostgreSQL database, or makes tokens.
@main
struct SyncServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-server",
        abstract: "Sync SQLiteStore devices through PostgreSQL.",
        discussion: "TLS is the deployment's concern: put a reverse proxy in front of the server.",
        subcommands: [Serve.self, AddToken.self, Maintain.self],
        defaultSubcommand: Serve.self)
}

/// The database option every subcommand takes.
struct DatabaseOption: ParsableArguments {
    @Option(help: "The PostgreSQL database: postgres://user[:password]@host[:port]/database.")
    var postgres: String

    /// The pool's configuration, for serving.
    func configuration() throws -> PostgresClient.Configuration {
        try validated { try PostgresClient.Configuration(url: postgres) }
    }

    /// One connection's configuration, for a one-off command.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        try validated { try PostgresConnection.Configuration(url: postgres) }
    }

    private func validated<Configuration>(_ make: () throws -> Configuration) throws -> Configuration {
        do {
            return try make()
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

/// What maintenance removes, which `serve` and `maintain` both take.
struct MaintenanceOptions: ParsableArguments {
    @Option(help: "Seconds a superseded change is kept before maintenance removes it from the log.")
    var retention: Int64 = 86_400
    @Option(help: "Days a device may go unseen before the server forgets it (it then reads a snapshot again); 0 never forgets.")
    var forgetDevicesAfterDays: Int64 = 90

    func policy() throws -> SyncMaintenancePolicy {
        guard retention >= 0 else { throw ValidationError("--retention is a number of seconds, 0 or more") }
        guard (0...36_500).contains(forgetDevicesAfterDays) else {
            throw ValidationError("--forget-devices-after-days is a number of days from 0 to 36500")
        }
        return SyncMaintenancePolicy(
            retention: .seconds(retention),
            forgetDevicesAfter: forgetDevicesAfterDays == 0 ? nil : .seconds(forgetDevicesAfterDays * 86_400))
    }
}

/// Serves pushes and pulls until SIGTERM or SIGINT.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve sync requests (the default).",
        discussion: """
            The server learns the apps' schema from their migrations: it applies the \
            NNNN_name.sql files of --migrations one by one to an in-memory SQLite database. It \
            syncs devices on the newest version and on any older one from which every later \
            migration only adds synced tables or columns that may be left out (those devices \
            receive only what their version has); others are told to upgrade (HTTP 409, \
            upgradeRequired). It refuses, storing nothing of the push, a change to a table or \
            column the device's version does not sync (HTTP 422, notSynced).

            Without authentication it also serves /health (200 while it runs), /ready (200 when \
            PostgreSQL answers and its tables exist, else 503 and why) and /metrics (Prometheus). \
            SIGTERM stops it gracefully: it finishes the requests it serves and exits 0.

            Example: sync-server --postgres postgres://sync@127.0.0.1/sync --port 8080 \
            --migrations Migrations --tables lists,items
            """)

    @OptionGroup var database: DatabaseOption
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one.") var port: Int
    @Option(help: ArgumentHelp("The folder of the apps' migrations (NNNN_name.sql files).", valueName: "folder"))
    var migrations: String
    @Option(help: ArgumentHelp("The tables the apps sync (StoreConfiguration.sync).", valueName: "a,b"))
    var tables: String
    @Option(help: ArgumentHelp("The tables whose rows accounts share with each other, each with the rows under it.", valueName: "a,b"))
    var shareRoots: String?
    @Option(
        help: ArgumentHelp(
            "The foreign keys that place rows under a share root, each table.column=parent (one per table).",
            valueName: "t.c=p,…"))
    var sharePaths: String?
    @Option(
        help: ArgumentHelp(
            "The subsets devices may subscribe to, each name=own-roots, name=root:table or name=rows:table.column.",
            valueName: "n=k,…"))
    var subscriptions: String?
    @Option(help: "Seconds a change's clock may run ahead of the server's before its push is refused.")
    var maxClockSkew: Int64 = 3600
    @Option(help: "Megabytes of snapshot pages computed ahead for the devices' next requests; 0 computes none ahead.")
    var snapshotLookaheadMb = 64
    @Option(help: "The most changes read from PostgreSQL for one snapshot page; a row with more is read as its winning changes.")
    var snapshotPageChanges = 20_000
    @OptionGroup var maintenance: MaintenanceOptions
    @Option(help: "Seconds between two maintenance runs (compaction, forgetting devices); 0 runs none (see `maintain`).")
    var maintenanceInterval: Int64 = 3600
    @Flag(help: "Stop as on SIGTERM when standard input ends (for a parent that may die without stopping the server).")
    var stopAtEndOfInput = false
    @Option(
        help: ArgumentHelp(
            "The least severe log lines written (standard error); info logs a line per request.",
            valueName: Logger.Level.allCases.map(\.rawValue).joined(separator: "|")),
        transform: { name in
            guard let level = Logger.Level(rawValue: name) else { throw ValidationError("\(name) is not a log level") }
            return level
        })
    var logLevel = Logger.Level.warning

    func run() async throws {
        if stopAtEndOfInput { EndOfInputWatch.start() }
        var configuration = SyncServerConfiguration(
            postgres: try database.configuration(), host: host, port: port, schemas: try schemas())
        // The process's global metrics go to the server's registry: /metrics shows them too.
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: configuration.metrics))
        configuration.sharing = try sharing(of: configuration.schema)
        configuration.subscriptions = try subsets(of: configuration.schema, sharing: configuration.sharing)
        configuration.maxClockSkew = .seconds(maxClockSkew)
        guard (0...(1 << 20)).contains(snapshotLookaheadMb) else {
            throw ValidationError("--snapshot-lookahead-mb is a number of megabytes from 0 to 1048576")
        }
        configuration.snapshotLookaheadBytes = snapshotLookaheadMb << 20
        guard snapshotPageChanges >= 1 else { throw ValidationError("--snapshot-page-changes is at least 1") }
        configuration.snapshotPageChanges = snapshotPageChanges
        configuration.maintenance = try maintenance.policy()
        guard maintenanceInterval >= 0 else { throw ValidationError("--maintenance-interval is a number of seconds, 0 or more") }
        configuration.maintenanceInterval = maintenanceInterval == 0 ? nil : .seconds(maintenanceInterval)
        var logger = Logger(label: "sync-server")
        logger.logLevel = logLevel
        try await SyncServer(configuration: configuration, logger: logger).run { [host] port in
            // One line that scripts and tests read to learn the port, written at once.
            FileHandle.standardOutput.write(Data("sync-server listening on \(host):\(port)\n".utf8))
        }
    }

    /// The items of a comma-separated option.
    private func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The subsets that `--subscriptions` declares; a usage error when they do not fit the
    /// schema and the sharing.
    private func subsets(of schema: SyncSchema, sharing: SyncSharing?) throws -> [SyncSubset] {
        do {
            let subsets = try list(subscriptions).map(SyncSubset.init(parsing:))
            try SyncSubset.check(subsets, against: schema, sharing: sharing)
            return subsets
        } catch {
            throw ValidationError("subscriptions: \(error)")
        }
    }

    /// The sharing that `--share-roots` and `--share-paths` declare (`nil`: none); a usage error
    /// when it does not fit the schema.
    private func sharing(of schema: SyncSchema) throws -> SyncSharing? {
        guard shareRoots != nil else {
            guard sharePaths == nil else { throw ValidationError("--share-paths needs --share-roots") }
            return nil
        }
        do {
            let sharing = SyncSharing(roots: Set(list(shareRoots)), paths: try list(sharePaths).map(SyncSharing.Path.init(parsing:)))
            try sharing.check(against: schema)
            return sharing
        } catch {
            throw ValidationError("sharing: \(error)")
        }
    }

    /// The synced tables of the schema the migrations build; a usage error when they cannot sync.
    private func schemas() throws -> SyncSchemaHistory {
        let names = Set(tables.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        guard !names.isEmpty else { throw ValidationError("--tables names at least one table") }
        do {
            return try SyncSchemaHistory(tables: names, migrator: try Migrator(folder: migrations))
        } catch {
            throw ValidationError("the schema of --migrations \(migrations) cannot sync --tables \(tables): \(error)")
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
        print(try await SyncServer.addToken(account: account, postgres: try database.connectionConfiguration(), logger: logger))
    }
}

/// Compacts the log and forgets devices once, as a running server does on its schedule.
struct Maintain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compact the change log and forget devices not seen for long, once.",
        discussion: """
            Removes from the log the changes that later changes of the same cells superseded and \
            that are older than --retention, one account per transaction (each account's pushes \
            wait for its own compaction only), then forgets the devices not seen for \
            --forget-devices-after-days. A running server does the same every \
            --maintenance-interval; this is for a server run without it, or from cron.
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var maintenance: MaintenanceOptions

    func run() async throws {
        var logger = Logger(label: "sync-server")
        logger.logLevel = .warning
        print(try await SyncServer.maintain(try maintenance.policy(), postgres: try database.configuration(), logger: logger))
    }
}
