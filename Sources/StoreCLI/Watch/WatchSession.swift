import Foundation
import SQLiteStoreCore
import SQLiteStoreResults

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
    /// results are shown. The text table shows the first page as soon as it is read, the
    /// rest coming as a change; `--json`'s `initial` line holds every row, as `--help` says.
    @MainActor
    func run(afterInitialResults: @Sendable () -> Void) async throws {
        let display: any WatchDisplay = json ? WatchJSONDisplay() : WatchTextDisplay(query: query)
        let controller = FetchedResultsController(store: store, request: query.fetchRequest)
        var changes = controller.changes().makeAsyncIterator()
        do {
            try controller.performFetch()
        } catch .store(let error) {
            throw error
        }
        let first = controller.results
        var current = try await WatchResults.reading(first, of: query, from: store)
        do {
            // The rest of the results comes as the first change, before any commit's.
            var isComplete = first.isComplete
            while json, !isComplete, let change = try await changes.next() {
                current = try await current.applying(change, of: query, from: store).0
                isComplete = change.results.isComplete
            }
            try display.show(current, after: nil)
            afterInitialResults()
            while let change = try await changes.next() {
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
