import BenchmarkKit
import Foundation
import SQLiteStoreCore
import SQLiteStoreResults

/// The first-screen workloads with SQLiteStore, as its users write them: a
/// `FetchedResultsController` with the default request (no batch size), `performFetch()`, then
/// `object(at:)` row by row, section by section; the model is `Codable` (`StoreFirstScreen<Item>`)
/// or declared with `@StoreModel` as the README does (`StoreFirstScreen<MacroItem>`).
@MainActor
public final class StoreFirstScreen<Model: StoreBenchmarkModel>: FirstScreenContender {
    /// The model's label: `SQLiteStore` or `SQLiteStoreMacro`.
    public nonisolated static var library: ContenderLibrary { Model.library }

    private let store: Store
    /// The requests, built once as an app's static requests are.
    private let byScore = FlaggedRequests<Model>.byScore
    private let byCategoryAndScore = FlaggedRequests<Model>.byCategoryAndScore
    private let byTitle = FlaggedRequests<Model>.byTitle

    /// Opens a `Store` with its default configuration.
    public init(databasePath: String) async throws {
        store = try StoreDatabase.open(atPath: databasePath)
    }

    /// Creates the controller, fetches, and reads the first `count` objects.
    public func firstScreen(count: Int, order: FirstScreenOrder) async throws -> [Model] {
        let request =
            switch order {
            case .score: byScore
            case .sectioned: byCategoryAndScore
            case .unindexed: byTitle
            }
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        var items: [Model] = []
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
    public func objectAhead(section: Int, row: Int) throws -> Model {
        let controller = FetchedResultsController(store: store, request: byCategoryAndScore)
        try controller.performFetch()
        return try controller.object(at: IndexPath(row: row, section: section))
    }

    /// Creates the controller, fetches, and waits until it holds every row.
    public func completeResults() async throws -> Int {
        let controller = FetchedResultsController(store: store, request: byScore)
        try controller.performFetch()
        try await controller.waitUntilCurrent()
        return controller.numberOfObjects
    }

    /// The read `performFetch()` made before issue 27, for comparison: a controller over no
    /// rows switched to the request with `setRequest(_:)`, which reads every row's keys and,
    /// without a batch size, every object before returning (then diffs from no rows).
    public func wholeReadBeforeReturning() throws -> Int {
        let controller = FetchedResultsController(store: store, request: byScore.filter(SQLExpression(sql: "0")))
        try controller.performFetch()
        try controller.setRequest(byScore)
        return controller.numberOfObjects
    }
}

/// The first-screen requests over the flagged rows, by column name, for either model.
enum FlaggedRequests<Model: StoreModel> {
    /// `firstScreen` and `completeResults`: by score.
    static var byScore: StoreRequest<Model> { flagged.order(Column("score").ascending) }

    /// `firstScreenSectioned`: by category, then score, in sections by category.
    static var byCategoryAndScore: StoreRequest<Model> {
        flagged.order(Column("category").ascending, Column("score").ascending).sectioned(by: Column("category"))
    }

    /// `firstScreenUnindexed`: by title, which no index serves.
    static var byTitle: StoreRequest<Model> { flagged.order(Column("title").ascending) }

    private static var flagged: StoreRequest<Model> { StoreRequest<Model>().filter(Column("flag") == 1) }
}
