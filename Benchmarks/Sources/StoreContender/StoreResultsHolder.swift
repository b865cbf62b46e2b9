import BenchmarkKit
import Foundation
import SQLiteStoreCore
import SQLiteStoreResults

/// `frcMemory` with SQLiteStore: a `FetchedResultsController` over every row by score with a
/// batch size, its first batch read as a list showing its first screen would.
@MainActor
public final class StoreResultsHolder: ResultsMemoryContender {
    /// Results are labelled `SQLiteStore`.
    public nonisolated static let library = ContenderLibrary.sqliteStore

    private let store: Store

    /// Opens a `Store` with its default configuration.
    public init(databasePath: String) async throws {
        store = try StoreDatabase.open(atPath: databasePath)
    }

    /// Performs the controller's fetch, reads the object at the top of the list and waits for
    /// the complete results.
    public func loadResults(batchSize: Int) async throws -> HeldResults {
        try load(ItemRequests.allByScore.batchSize(batchSize))
    }

    /// `loadResults` ordered by a text key then an integer key: `category` (short texts) or,
    /// with `longText`, `title` (17–18 bytes, beyond the 16 bytes kept inline).
    public func loadTextKeyedResults(batchSize: Int, longText: Bool) async throws -> HeldResults {
        try load((longText ? ItemRequests.allByTitleAndFlag : ItemRequests.allByCategoryAndFlag).batchSize(batchSize))
    }

    private func load(_ request: StoreRequest<Item>) throws -> HeldResults {
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        if controller.numberOfObjects > 0 {
            _ = try controller.object(at: IndexPath(row: 0, section: 0))
        }
        try controller.catchUp()
        return HeldResults(controller: controller, rowCount: controller.numberOfObjects)
    }

    /// The row count taken when the results were loaded.
    public nonisolated func rowCount(of results: HeldResults) -> Int {
        results.rowCount
    }
}

/// A live controller held while memory is measured, and its row count.
public struct HeldResults: Sendable {
    /// Keeps the results alive.
    let controller: FetchedResultsController<Item>
    /// How many rows the controller had when loaded.
    let rowCount: Int
}
