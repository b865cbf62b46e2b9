import CoreMetrics
import Metrics
import Prometheus
import SQLiteStoreSyncProtocol

/// The server's metrics, recorded through swift-metrics into the configuration's Prometheus
/// registry (not the process's global metrics system, so that several servers in one process
/// each count their own) and served as text at `/metrics`.
struct SyncMetrics: Sendable {
    /// Metric names, as `/metrics` shows them.
    enum Name {
        static let requests = "sync_requests_total"
        static let pushDuration = "sync_push_duration_seconds"
        static let pullDuration = "sync_pull_duration_seconds"
        static let changesStored = "sync_changes_stored_total"
        static let connectedDevices = "sync_connected_devices"
        static let changeLogRows = "sync_change_log_rows"
        static let compactionRuns = "sync_compaction_runs_total"
        static let changesCompacted = "sync_changes_compacted_total"
        static let devicesForgotten = "sync_devices_forgotten_total"
    }

    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let pushDuration: CoreMetrics.Timer
    private let pullDuration: CoreMetrics.Timer
    private let longPollDuration: CoreMetrics.Timer
    /// Changes a push stored that the log did not hold before.
    let changesStored: CoreMetrics.Counter
    /// Pulls waiting for a change now (long polls): the devices connected to this process.
    let connectedDevices: CoreMetrics.Meter
    /// The rows of the change log (all accounts), as last refreshed.
    let changeLogRows: CoreMetrics.Gauge
    /// Compactions of the change log run by this process.
    let compactionRuns: CoreMetrics.Counter
    /// Superseded changes those compactions removed.
    let changesCompacted: CoreMetrics.Counter
    /// Devices this process's maintenance forgot.
    let devicesForgotten: CoreMetrics.Counter

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        // A long poll waits up to a minute: its buckets reach that far.
        factory.durationHistogramBuckets[Name.pullDuration] =
            factory.defaultDurationHistogramBuckets + [.seconds(30), .seconds(60)]
        self.factory = factory
        pushDuration = CoreMetrics.Timer(label: Name.pushDuration, factory: factory)
        pullDuration = CoreMetrics.Timer(label: Name.pullDuration, dimensions: [("long_poll", "false")], factory: factory)
        longPollDuration = CoreMetrics.Timer(label: Name.pullDuration, dimensions: [("long_poll", "true")], factory: factory)
        changesStored = CoreMetrics.Counter(label: Name.changesStored, factory: factory)
        connectedDevices = CoreMetrics.Meter(label: Name.connectedDevices, factory: factory)
        changeLogRows = CoreMetrics.Gauge(label: Name.changeLogRows, factory: factory)
        compactionRuns = CoreMetrics.Counter(label: Name.compactionRuns, factory: factory)
        changesCompacted = CoreMetrics.Counter(label: Name.changesCompacted, factory: factory)
        devicesForgotten = CoreMetrics.Counter(label: Name.devicesForgotten, factory: factory)
    }

    /// Counts an answered request by its route (`NotFound` for none) and status, and records
    /// how long a push or a pull took; a pull that asked to wait (a long poll) is recorded
    /// apart, since its time is mostly the wait.
    func requestAnswered(route: String, status: Int, duration: Duration, longPoll: Bool) {
        CoreMetrics.Counter(label: Name.requests, dimensions: [("endpoint", route), ("status", String(status))], factory: factory)
            .increment()
        switch route {
        case SyncWireFormat.pushPath: pushDuration.record(duration: duration)
        case SyncWireFormat.pullPath: (longPoll ? longPollDuration : pullDuration).record(duration: duration)
        default: break
        }
    }

    /// The metrics in Prometheus's text format.
    func text() -> [UInt8] { registry.emitToBuffer() }
}
