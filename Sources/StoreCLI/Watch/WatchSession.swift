import FetchedResults
import Foundation
import Store

/// Shows a query's results, then each change to them, until the task is cancelled.
struct WatchSession: Sendable {
    let store: Store
    let query: WatchQuery
    let json: Bool

    func run() async throws {
        let display: any WatchDisplay = json ? WatchJSONDisplay() : WatchTextDisplay(query: query)
        // Subscribe before the first read, so that no commit falls between them.
        let changes = store.changes(in: [query.table])
        var current = try await fetch()
        try display.show(current, after: nil)
        for await change in changes {
            let next = try await fetch()
            let changeSet = current.changeSet(to: next)
            if !changeSet.isEmpty {
                let update = WatchUpdate(changeSet: changeSet, old: current, new: next,
                                         origin: change.isExternal ? .external : .local(latency: nil), time: Date())
                try display.show(next, after: update)
            }
            current = next
        }
    }

    private func fetch() async throws -> WatchResults {
        try await store.read { [query] db in try WatchResults.fetch(query, in: db) }
    }
}
