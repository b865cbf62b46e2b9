@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// What the server will be, in memory: an ordered log of changes that stores each change id
/// once, however often it is pushed.
final class SyncServerStandIn {
    private(set) var log: [SyncChange] = []
    private var ids: Set<SyncChange.ID> = []
    /// How many pushed changes were already in the log (resent after a lost acknowledgement).
    private(set) var duplicatesReceived = 0

    func receive(_ batch: SyncBatch) {
        for change in batch.changes {
            if ids.insert(change.id).inserted { log.append(change) } else { duplicatesReceived += 1 }
        }
    }

    /// Each device's sequence numbers in the log, in log order.
    func sequences() -> [String: [Int64]] {
        var sequences: [String: [Int64]] = [:]
        for change in log { sequences[change.id.device, default: []].append(change.id.sequence) }
        return sequences
    }
}
