import Foundation
import SQLiteStoreCore

/// Which tables a store records for sync (see <doc:SyncBetweenDevices>).
///
/// Each synced table must be a rowid table whose primary key is one column of `TEXT` or
/// `BLOB` affinity (a `UUID` or `String` model key): keys made on one device must never collide
/// with another device's. Set it as `StoreConfiguration.sync` of the store's
/// configuration; `Store(path:configuration:)` refuses anything else with a `StoreError` naming
/// the table.
public struct SyncConfiguration: Sendable {
    /// The names of the synced tables.
    public var tables: Set<String>
    /// The physical clock the hybrid logical clock reads, in milliseconds since 1970.
    var physicalClock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    /// Where the refusals the store records go once committed (``StoreSync/refusals()``).
    let refusalFeed = SyncRefusalFeed()

    /// Sync for the given tables.
    public init(tables: Set<String>) {
        self.tables = tables
    }
}

extension SyncConfiguration: CommitParticipantSettings {
    package func makeParticipant(on db: Database) throws -> any CommitParticipant {
        try SyncCoordinator(configuration: self, database: db)
    }
}

extension StoreConfiguration {
    /// The tables whose changes are recorded for sync with other devices (see
    /// <doc:SyncBetweenDevices>); `nil`, the default, records nothing.
    public var sync: SyncConfiguration? {
        get { commitParticipant as? SyncConfiguration }
        set { commitParticipant = newValue }
    }
}
