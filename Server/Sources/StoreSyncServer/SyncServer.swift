import Hummingbird
import Logging
import PostgresNIO
import SQLiteStoreSync
import ServiceLifecycle

/// A sync server process: HTTP endpoints in front of the PostgreSQL database, its only state.
/// Any number of processes may serve one database.
public struct SyncServer: Sendable {
    /// What the server runs with.
    public let configuration: SyncServerConfiguration
    private let logger: Logger

    /// A server for the configuration; nothing runs before ``run(onListening:)``.
    public init(configuration: SyncServerConfiguration, logger: Logger = Logger(label: "sync-server")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Serves until SIGTERM or SIGINT, creating the schema if needed meanwhile (`/ready` answers
    /// 503 until it exists and while PostgreSQL does not answer); `onListening` gets the port
    /// once requests are accepted.
    ///
    /// Told to stop, it stops accepting connections, answers its waiting long polls at once
    /// (with no changes: their devices poll again, another server then), finishes the requests
    /// in flight, and returns.
    ///
    /// - Throws: `SyncServerSetupError` when the sharing declaration or the subscriptions do not
    ///   fit the newest schema.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        do {
            try configuration.sharing?.check(against: configuration.schema)
            try SyncSubset.check(configuration.subscriptions, against: configuration.schema, sharing: configuration.sharing)
        } catch let error as SyncSharingError {
            throw SyncServerSetupError("sharing: \(error)")
        }
        let client = PostgresClient(configuration: configuration.postgres, backgroundLogger: logger)
        let log = ChangeLog(client: client, logger: logger)
        let notifier = ChangeNotifier()
        let metrics = SyncMetrics(registry: configuration.metrics)
        let readiness = ServerReadiness(client: client)
        let router = Router()
        // Outermost first: the request id is set before anything else runs and is echoed on every
        // answer, a route's thrown error (404) included.
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        let schemas = configuration.schemas
        let lookahead = SnapshotLookahead(byteBudget: configuration.snapshotLookaheadBytes) { key, nextKnown in
            let changes = try await log.snapshot(
                account: key.account, upTo: key.cursor, after: key.position, limit: key.limit,
                changeLimit: configuration.snapshotPageChanges, nextKnown: nextKnown)
            guard let schema = schemas.schemaSyncingWithNewest(key.schemaVersion) else {
                throw SnapshotPageError("schema version \(key.schemaVersion) cannot sync")
            }
            // The newest version syncs every stored change's table and column; an older one, some.
            var synced = SyncedNames(schema)
            return try SnapshotPageWriter.page(of: changes, schemaVersion: schema.version, cursor: key.cursor) { change in
                schema.version == schemas.newest.version || synced.contains(changes, change)
            }
        }
        SyncEndpoints(
            log: log, notifier: notifier, metrics: metrics, readiness: readiness, configuration: configuration, lookahead: lookahead
        ).register(on: router)
        OperationsEndpoints(readiness: readiness, metrics: metrics).register(on: router)
        // Stopped in reverse order, after the HTTP server has finished its requests: PostgreSQL last.
        var services: [any Service] = [
            client, ChangeListener(client: client, notifier: notifier, logger: logger),
            SchemaCreation(log: log, readiness: readiness, logger: logger),
            ChangeLogRowsRefresh(log: log, metrics: metrics, interval: configuration.changeLogRowsRefresh, logger: logger),
        ]
        if let interval = configuration.maintenanceInterval {
            services.append(
                LogMaintenance(log: log, policy: configuration.maintenance, interval: interval, metrics: metrics, logger: logger))
        }
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "sync-server"),
            services: services,
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await application.runService()
    }

    /// Runs maintenance once (after creating the schema if needed): compacts every account's
    /// log and forgets the devices not seen for the policy's period, as a running server does
    /// on its schedule.
    ///
    /// - Throws: `SyncServerSetupError` with PostgreSQL's reason when it cannot be reached or
    ///   refuses.
    public static func maintain(
        _ policy: SyncMaintenancePolicy, postgres: PostgresClient.Configuration, logger: Logger
    ) async throws -> SyncMaintenanceReport {
        let client = PostgresClient(configuration: postgres, backgroundLogger: logger)
        let log = ChangeLog(client: client, logger: logger)
        do {
            return try await withThrowingTaskGroup(of: SyncMaintenanceReport?.self) { group in
                group.addTask {
                    await client.run()
                    return nil
                }
                defer { group.cancelAll() }
                try await log.createSchema()
                return try await log.maintain(policy)
            }
        } catch let error as PSQLError {
            throw SyncServerSetupError("PostgreSQL: \(error.serverInfo?[.message] ?? String(reflecting: error))")
        }
    }

    /// Makes a bearer token for the account named `account` (created if new), after creating the
    /// schema if needed, in one transaction on one connection; only the token's hash is stored,
    /// so print it now.
    ///
    /// - Throws: `SyncServerSetupError` with PostgreSQL's reason when it cannot be reached or
    ///   refuses (no such database, a wrong password).
    public static func addToken(account: String, postgres: PostgresConnection.Configuration, logger: Logger) async throws -> String {
        do {
            let connection = try await PostgresConnection.connect(configuration: postgres, id: 1, logger: logger)
            do {
                let token = try await connection.withTransaction(logger: logger) { connection in
                    try await ChangeLog.createSchema(on: connection, logger: logger)
                    return try await ChangeLog.addToken(account: account, on: connection, logger: logger)
                }
                try await connection.close()
                return token
            } catch {
                try? await connection.close()
                throw error
            }
        } catch let error as PSQLError {
            // Its description hides the server's message; the reason is what the user needs.
            throw SyncServerSetupError("PostgreSQL: \(postgresReason(error))")
        }
    }
}
