import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Whether the process can serve sync requests: its tables exist in PostgreSQL (created by
/// ``SchemaCreation``) and PostgreSQL answers now. `/ready` reports it.
final class ServerReadiness: Sendable {
    private let client: PostgresClient
    /// Nil once the tables exist; else why they do not yet.
    private let schemaProblem = Mutex<String?>("the server's tables are not created yet")

    /// How long the check waits for PostgreSQL's answer.
    static var answerDeadline: Duration { .seconds(2) }

    init(client: PostgresClient) { self.client = client }

    /// Nil once the tables exist, else why they do not yet.
    var schemaNotCreated: String? { schemaProblem.withLock { $0 } }

    /// The tables exist.
    func schemaCreated() { schemaProblem.withLock { $0 = nil } }

    /// Creating the tables failed for `reason`; it is tried again.
    func schemaFailed(_ reason: String) { schemaProblem.withLock { $0 = "the server's tables are not created yet: \(reason)" } }

    /// Nil when the process is ready, else why not: it is stopping, PostgreSQL does not answer
    /// a query within ``answerDeadline``, or the server's tables do not exist yet.
    func problem(logger: Logger) async -> String? {
        if Task.isShuttingDownGracefully { return "the server is stopping" }
        if let problem = await postgresProblem(logger: logger) { return problem }
        return schemaNotCreated
    }

    /// Nil when PostgreSQL answers `SELECT 1` within ``answerDeadline``, else why not.
    private func postgresProblem(logger: Logger) async -> String? {
        do {
            let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask { [client] in
                    _ = try await client.query("SELECT 1", logger: logger).collect()
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: Self.answerDeadline)
                    return false
                }
                defer { group.cancelAll() }
                return try await group.next() ?? false
            }
            return answered ? nil : "PostgreSQL did not answer within \(Self.answerDeadline)"
        } catch {
            return "PostgreSQL did not answer: \(postgresReason(error))"
        }
    }
}
