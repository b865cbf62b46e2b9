import Foundation
import PostgresNIO
import Prometheus
import SQLiteStoreCore
import SQLiteStoreSync

/// How a sync server process runs: its database, its address and the limits it enforces.
public struct SyncServerConfiguration: Sendable {
    /// The PostgreSQL database, the server's only state.
    public var postgres: PostgresClient.Configuration
    /// The loopback or public address to listen on.
    public var host: String
    /// The port (0: any free port, printed at start).
    public var port: Int
    /// The apps' synced tables at each schema version their migrations reach: a device on a
    /// version that cannot sync with the newest is told to upgrade, and a push naming a table
    /// or column its version does not sync is refused, nothing of it stored.
    public var schemas: SyncSchemaHistory
    /// The newest schema: the version of every migration.
    public var schema: SyncSchema { schemas.newest }
    /// Which rows accounts can share with each other (`nil`: none; each account syncs its own
    /// data only). Checked against the newest schema when the server starts.
    public var sharing: SyncSharing?
    /// The subsets devices may subscribe to (empty: none; each device syncs its account's
    /// whole data). Checked against the newest schema and ``sharing`` when the server starts.
    public var subscriptions: [SyncSubset] = []
    /// How far a change's clock may run ahead of the server's before the push is refused.
    public var maxClockSkew: Duration
    /// The largest push body, in bytes.
    public var maxBodyBytes: Int
    /// The most changes in one push.
    public var maxChangesPerPush: Int
    /// The most changes one pull returns.
    public var maxPullLimit: Int
    /// The longest a pull may wait for a change (a long poll).
    public var maxWait: Duration
    /// The most bytes of snapshot pages computed ahead and kept for the devices' next requests
    /// (0: none computed ahead). While a new device reads one page, the server computes the next.
    public var snapshotLookaheadBytes: Int
    /// The most changes the server reads from PostgreSQL for one snapshot page: a page holds
    /// fewer rows than the device asked for when their changes would exceed it, and a row
    /// with more changes on its own is read as its winning changes only. It bounds a page's
    /// memory whatever the rows' history (PostgreSQL refuses an array over 1 GB).
    public var snapshotPageChanges: Int
    /// What maintenance removes from the log: superseded changes past their retention, devices
    /// not seen for long.
    public var maintenance: SyncMaintenancePolicy
    /// How often the server runs maintenance (`nil`: never; `sync-server maintain` runs it once).
    public var maintenanceInterval: Duration?
    /// Where the server records its metrics, served at `/metrics`: a registry of its own by
    /// default, the one the process's global metrics system uses when it should serve those too.
    public var metrics: PrometheusCollectorRegistry
    /// How often the change-log rows metric is refreshed from PostgreSQL's estimate.
    public var changeLogRowsRefresh: Duration

    /// A configuration with the default limits: 1 hour of clock skew, 8 MiB and 10,000 changes per push,
    /// 5,000 changes per pull, 60 s of long poll,
    /// 64 MiB of snapshot pages computed ahead, 20,000 changes read for a snapshot page;
    /// maintenance every hour with the default ``SyncMaintenancePolicy``; a new metrics
    /// registry, the change-log rows metric refreshed every 30 s.
    public init(postgres: PostgresClient.Configuration, host: String = "127.0.0.1", port: Int, schemas: SyncSchemaHistory) {
        self.postgres = postgres
        self.host = host
        self.port = port
        self.schemas = schemas
        self.maxClockSkew = .seconds(3600)
        self.maxBodyBytes = 8 << 20
        self.maxChangesPerPush = 10_000
        self.maxPullLimit = 5_000
        self.maxWait = .seconds(60)
        self.snapshotLookaheadBytes = 64 << 20
        self.snapshotPageChanges = 20_000
        self.maintenance = SyncMaintenancePolicy()
        self.maintenanceInterval = .seconds(3600)
        self.metrics = PrometheusCollectorRegistry()
        self.changeLogRowsRefresh = .seconds(30)
    }
}

/// A server that cannot start as configured.
public struct SyncServerSetupError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}
