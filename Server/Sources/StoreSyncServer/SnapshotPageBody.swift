import Foundation
import SQLiteStoreSyncProtocol

/// A snapshot page as the server answers it: its JSON, and where the page after it starts
/// (`nil` for the snapshot's last), which ``SnapshotLookahead`` reads without decoding the JSON.
struct SnapshotPageBody: Sendable {
    /// The page, a `SyncSnapshotPage` in JSON.
    let json: Data
    /// The page's `next`.
    let next: SyncSnapshotPosition?
}
