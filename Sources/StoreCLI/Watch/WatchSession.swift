import Foundation
import SQLiteStore

/// Shows a query's results, then each change to them, until the task is cancelled or the
/// controller fails to follow the store (the table was dropped, say): its `changes()`
/// sequence then throws why.
///
/// A `FetchedResultsController` on the watched table gives the results, their sections and
/// a change set per delivered change; the session adds the shown values of the rows each
/// change touches.
struct WatchSession: Sendable {
    let store: Store
    let query: WatchQuery
    let json: Bool

    /// Shows the results and their changes; calls `afterInitialResults` once the first
    /// results are shown.
    @MainActor
    func run(afterInitialResults: @Sendable () -> Void) async throws {
        let display: any WatchDisplay = json ? WatchJSONDisplay() : WatchTextDisplay(query: query)
        let controller = FetchedResultsController(store: store, request: query.fetchRequest)
        let changes = controller.changes()
        do {
            try controller.performFetch()
        } catch .store(let error) {
            throw error
        }
        var current = try await WatchResults.reading(controller.results, of: query, from: store)
        try display.show(current, after: nil)
        afterInitialResults()
        do {
            for try await change in changes {
                let (next, changeSet) = try await current.applying(change, of: query, from: store)
                if !changeSet.isEmpty {
                    let update = WatchUpdate(changeSet: changeSet, old: current, new: next, time: Date())
                    try display.show(next, after: update)
                }
                current = next
            }
        } catch FetchedResultsError.store(let error) {
            // The controller stopped following the store: its sequence threw why.
            throw error
        }
    }
}
