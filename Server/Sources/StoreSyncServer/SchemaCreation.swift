import Logging
import ServiceLifecycle

/// Creates the server's tables when the process starts, trying again (after 0.1 s, doubling up
/// to 5 s) while PostgreSQL cannot be reached or refuses, so that the process serves `/health`
/// and `/ready` meanwhile; ``ServerReadiness`` learns the outcome.
struct SchemaCreation: Service {
    let log: ChangeLog
    let readiness: ServerReadiness
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var delay = Duration.milliseconds(100)
            while !Task.isCancelled {
                do {
                    try await log.createSchema()
                    readiness.schemaCreated()
                    return
                } catch {
                    let reason = postgresReason(error)
                    readiness.schemaFailed(reason)
                    logger.error("sync: creating the tables failed, retrying in \(delay): \(reason)")
                    try? await Task.sleep(for: delay)
                    delay = min(delay * 2, .seconds(5))
                }
            }
        }
        // A service that returns ends the process's services: this one waits with them.
        try? await gracefulShutdown()
    }
}
