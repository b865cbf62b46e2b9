import Logging
import ServiceLifecycle

/// Runs maintenance every `interval` for the life of the process. An account is compacted a
/// hundred rows at a time, each batch in a transaction of its own under the lock its pushes
/// take, so a push waits for at most one batch. Several processes may run it on one database:
/// they take turns per batch, and a run finds less to do after another.
struct LogMaintenance: Service {
    let log: ChangeLog
    let policy: SyncMaintenancePolicy
    let interval: Duration
    let metrics: SyncMetrics
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                    let report = try await log.maintain(policy)
                    metrics.compactionRuns.increment()
                    metrics.changesCompacted.increment(by: report.changesRemoved)
                    metrics.devicesForgotten.increment(by: report.devicesForgotten)
                    logger.info("sync: maintenance \(report)")
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("sync: maintenance failed, trying again at the next run: \(String(reflecting: error))")
                }
            }
        }
    }
}
