import Foundation

/// Which tables a store records for sync (see <doc:SyncBetweenDevices>).
///
/// Each synced table must be a rowid table whose primary key is one column of `TEXT` or
/// `BLOB` affinity (a `UUID` or `String` model key): keys made on one device must never collide
/// with another device's. `Store(path:configuration:)` refuses anything else with a
/// `StoreError` naming the table.
public struct SyncConfiguration: Sendable {
    /// The names of the synced tables.
    public var tables: Set<String>
    /// The physical clock the hybrid logical clock reads, in milliseconds since 1970.
    var physicalClock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Sync for the given tables.
    public init(tables: Set<String>) {
        self.tables = tables
    }
}
