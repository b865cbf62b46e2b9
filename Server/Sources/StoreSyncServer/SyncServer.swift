import Hummingbird
import Logging
import PostgresNIO
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

    /// Creates the schema if needed, then serves until SIGTERM or SIGINT; `onListening` gets
    /// the port once requests are accepted.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let client = PostgresClient(configuration: configuration.postgres, backgroundLogger: logger)
        let log = ChangeLog(client: client, logger: logger)
        let notifier = ChangeNotifier()
        let router = Router()
        SyncEndpoints(log: log, notifier: notifier, configuration: configuration).register(on: router)
        var application = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "sync-server"),
            services: [client, ChangeListener(client: client, notifier: notifier, logger: logger)],
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        application.beforeServerStarts { try await log.createSchema() }
        try await application.runService()
    }

    /// Makes a bearer token for the account named `account` (created if new), after creating the
    /// schema if needed; only the token's hash is stored, so print it now.
    public static func addToken(account: String, postgres: PostgresClient.Configuration, logger: Logger) async throws -> String {
        let client = PostgresClient(configuration: postgres, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            let log = ChangeLog(client: client, logger: logger)
            try await log.createSchema()
            let token = try await log.addToken(account: account)
            group.cancelAll()
            return token
        }
    }
}
