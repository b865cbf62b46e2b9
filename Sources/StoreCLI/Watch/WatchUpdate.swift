import FetchedResults
import Foundation

/// One delivered step of a watched query: the change set from the old results to the new.
struct WatchUpdate: Sendable {
    /// How the change reached the watcher.
    enum Origin: Sendable {
        /// Another connection or process committed it.
        case external
        /// This process committed it, `latency` (when known) before it was displayed.
        case local(latency: Duration?)
    }

    let changeSet: ChangeSet
    let old: WatchResults
    let new: WatchResults
    let origin: Origin
    let time: Date
}
