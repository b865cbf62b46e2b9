import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// What orders two writes of one cell, or a write and a delete: the hybrid timestamp, then the
/// device id, so that every device picks the same winner.
struct SyncStamp: Comparable {
    let timestamp: HybridTimestamp
    let device: String

    static func < (lhs: SyncStamp, rhs: SyncStamp) -> Bool {
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        return lhs.device.utf8Precedes(rhs.device)
    }
}
