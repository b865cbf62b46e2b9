#if canImport(SwiftUI)
import SwiftUI
import TodoKit

/// The sync's state: live or not, the last error, and a button that syncs now. Live syncing
/// starts when the view shows.
struct SyncStatusView: View {
    let sync: TodoSync

    var body: some View {
        HStack {
            if let error = sync.lastError {
                Text("Sync: \(String(describing: error))")
                    .lineLimit(1)
            } else {
                Text(sync.isLive ? "Synced live" : "Not syncing")
            }
            Button("Sync now") {
                Task { try? await sync.synchronize() }  // a failure shows in sync.lastError
            }
        }
        .task { sync.startLive() }
    }
}
#endif
