import Foundation
import SQLiteStoreCore
import SQLiteStoreResults

/// One delivered step of a watched query: the change set from the old results to the new.
///
/// Every change comes from another connection or process: watch's store is read-only, so
/// there is never a commit of its own whose latency it could measure.
struct WatchUpdate: Sendable {
    let changeSet: ChangeSet
    let old: WatchResults
    let new: WatchResults
    /// When the change was displayed.
    let time: Date
}
