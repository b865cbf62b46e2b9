import BenchmarkKit
import Foundation
import SQLiteStoreCore
import SQLiteStoreResults

/// The first-screen workloads with SQLiteStore, as its users write them: a
/// `FetchedResultsController` with the default request (no batch size), `performFetch()`, then
/// `object(at:)` row by row, section by section.
@MainActor
public final class StoreFirstScreen: FirstScreenContender {
    /// Results are labelled `SQLiteStore`.
    public nonisolated static let library = ContenderLibrary.sqliteStore

    private let store: Store

    /// Opens a `Store` with its default configuration.
    public init(databasePath: String) async throws {
        store = try Store(path: databasePath)
    }

    /// Creates the controller, fetches, and reads the first `count` objects.
    public func firstScreen(count: Int, order: FirstScreenOrder) async throws -> [Item] {
        let request =
            switch order {
            case .score: ItemRequests.flaggedByScore
            case .sectioned: ItemRequests.flaggedByCategoryAndScore
            case .unindexed: ItemRequests.flaggedByTitle
            }
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        var items: [Item] = []
        for (section, info) in controller.sections.enumerated() {
            for row in 0..<info.numberOfObjects where items.count < count {
                items.append(try controller.object(at: IndexPath(row: row, section: section)))
            }
        }
        return items
    }

    /// Creates the sectioned controller, fetches, and reads the object at `row` of section
    /// `section`, far past the first page: the background read finds it in the page's
    /// snapshot while it reads the rest (a sectioned list waited for the complete index before).
    public func objectAhead(section: Int, row: Int) throws -> Item {
        let controller = FetchedResultsController(store: store, request: ItemRequests.flaggedByCategoryAndScore)
        try controller.performFetch()
        return try controller.object(at: IndexPath(row: row, section: section))
    }

    /// Creates the controller, fetches, and waits until it holds every row.
    public func completeResults() async throws -> Int {
        let controller = FetchedResultsController(store: store, request: ItemRequests.flaggedByScore)
        try controller.performFetch()
        try await controller.waitUntilCurrent()
        return controller.numberOfObjects
    }

    /// The read `performFetch()` made before issue 27, for comparison: a controller over no
    /// rows switched to the request with `setRequest(_:)`, which reads every row's keys and,
    /// without a batch size, every object before returning (then diffs from no rows).
    public func wholeReadBeforeReturning() throws -> Int {
        let controller = FetchedResultsController(store: store, request: ItemRequests.flaggedByScore.filter(SQLExpression(sql: "0")))
        try controller.performFetch()
        try controller.setRequest(ItemRequests.flaggedByScore)
        return controller.numberOfObjects
    }
}

extension ItemRequests {
    /// `firstScreenSectioned`: the flagged rows by category, then score, in sections by category.
    static let flaggedByCategoryAndScore = StoreRequest<Item>().filter(Column("flag") == 1)
        .order(Column("category").ascending, Column("score").ascending).sectioned(by: Column("category"))

    /// `firstScreenUnindexed`: the flagged rows by title, which no index serves.
    static let flaggedByTitle = StoreRequest<Item>().filter(Column("flag") == 1).order(Column("title").ascending)
}
