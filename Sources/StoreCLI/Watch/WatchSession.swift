import SQLiteStore
import Foundation

/// Shows a query's results, then each change to them, until the task is cancelled or the
/// controller fails to follow the store (the table was dropped, say).
///
/// A `FetchedResultsController` on the watched table gives the results, their sections and
/// a change set per delivered change; the session adds the shown values of the rows each
/// change touches.
struct WatchSession: Sendable {
    let store: Store
    let query: WatchQuery
    let json: Bool

    /// How often the controller's `lastError` is checked: it reports failures no other way.
    private static let failureCheckInterval = Duration.milliseconds(100)

    /// Shows the results and their changes; calls `afterInitialResults` once the first
    /// results are shown.
    @MainActor
    func run(afterInitialResults: @Sendable () -> Void) async throws {
        let display: any WatchDisplay = json ? WatchJSONDisplay() : WatchTextDisplay(query: query)
        let controller = FetchedResultsController(store: store, request: query.fetchRequest)
        let changes = failing(changes: controller.changes(), of: controller)
        do {
            try controller.performFetch()
        } catch .store(let error) {
            throw error
        }
        var current = try await WatchResults.reading(controller.results, of: query, from: store)
        try display.show(current, after: nil)
        afterInitialResults()
        for try await change in changes {
            let (next, changeSet) = try await current.applying(change, of: query, from: store)
            if !changeSet.isEmpty {
                let update = WatchUpdate(changeSet: changeSet, old: current, new: next, time: Date())
                try display.show(next, after: update)
            }
            current = next
        }
    }

    /// The controller's changes, ending with its first failure to follow the store, which
    /// it reports only through `lastError`, checked every `failureCheckInterval`.
    @MainActor
    private func failing(changes: AsyncStream<FetchedResultsChange>,
                         of controller: FetchedResultsController<WatchRow>) -> AsyncThrowingStream<FetchedResultsChange, any Error> {
        let (stream, continuation) = AsyncThrowingStream<FetchedResultsChange, any Error>.makeStream()
        let forwarding = Task { @MainActor in
            for await change in changes { continuation.yield(change) }
        }
        let checking = Task { @MainActor in
            if let error = try? await failure(of: controller) { continuation.finish(throwing: error) }
        }
        continuation.onTermination = { _ in
            forwarding.cancel()
            checking.cancel()
        }
        return stream
    }

    /// The controller's first failure to follow the store, once it happens; throws when cancelled.
    @MainActor
    private func failure(of controller: FetchedResultsController<WatchRow>) async throws -> any Error {
        while true {
            try await Task.sleep(for: Self.failureCheckInterval)
            switch controller.lastError {
            case .store(let error): return error
            case let error?: return error
            case nil: continue
            }
        }
    }
}
