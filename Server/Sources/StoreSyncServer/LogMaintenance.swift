import Logging
import PostgresNIO
import ServiceLifecycle

/// What one maintenance run did: the change log compacted, devices forgotten.
public struct SyncMaintenanceReport: Sendable, Hashable, CustomStringConvertible {
    /// The accounts whose changes were compacted: those with changes older than the retention
    /// window since their last compaction.
    public var accountsCompacted = 0
    /// The superseded changes removed from the log.
    public var changesRemoved = 0
    /// The devices forgotten, not seen for the pruning period.
    public var devicesForgotten = 0

    public var description: String {
        "compacted \(accountsCompacted) accounts, removed \(changesRemoved) superseded changes, forgot \(devicesForgotten) devices"
    }
}

/// How the server keeps its log bounded: what maintenance removes, and how often it runs.
public struct SyncMaintenancePolicy: Sendable, Hashable {
    /// How long a change is kept after another superseded it: a retried push of it within the
    /// window is still recognized by its id, and a snapshot read across the window sees it.
    public var retention: Duration
    /// How long a device may go unseen before the server forgets it (`nil`: never). A forgotten
    /// device that comes back reads a snapshot again, keeping its unpushed changes.
    public var forgetDevicesAfter: Duration?

    /// A policy; by default a day of retention and devices forgotten after 90 days.
    public init(retention: Duration = .seconds(86_400), forgetDevicesAfter: Duration? = .seconds(90 * 86_400)) {
        self.retention = retention
        self.forgetDevicesAfter = forgetDevicesAfter
    }
}

extension ChangeLog {
    /// Compacts every account that needs it, one at a time, then forgets the devices not seen
    /// for the policy's period.
    func maintain(_ policy: SyncMaintenancePolicy) async throws -> SyncMaintenanceReport {
        var report = SyncMaintenanceReport()
        (report.accountsCompacted, report.changesRemoved) = try await compact(olderThan: policy.retention)
        if let period = policy.forgetDevicesAfter { report.devicesForgotten = try await pruneDevices(notSeenFor: period) }
        return report
    }
}

/// Runs maintenance every `interval` for the life of the process. Each account is compacted in
/// a transaction of its own under the lock its pushes take, so pushes wait for at most one
/// account's compaction. Several processes may run it on one database: they take turns per
/// account, and a run finds less to do after another.
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
