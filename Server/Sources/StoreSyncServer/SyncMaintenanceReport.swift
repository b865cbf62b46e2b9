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
