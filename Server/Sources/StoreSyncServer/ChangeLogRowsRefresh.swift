import Logging
import ServiceLifecycle

/// Sets ``SyncMetrics/changeLogRows`` from ``ChangeLog/estimatedRowCount()`` at start and
/// then every `interval`, until the process stops.
struct ChangeLogRowsRefresh: Service {
    let log: ChangeLog
    let metrics: SyncMetrics
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if let rows = try await log.estimatedRowCount() { metrics.changeLogRows.record(rows) }
                } catch {
                    logger.warning("sync: counting the change log's rows failed: \(postgresReason(error))")
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
