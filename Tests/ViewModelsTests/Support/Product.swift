import Foundation
import Observation
import SQLiteStoreCore
import SQLiteStoreViewModels
import Testing

/// The stored model of the view-model tests.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct Product: StoreModel, Equatable {
    static let tableName = "product"
    var id: Int64?
    var name: String
    var price: Int
    var stock = 0

    static let schema = """
        CREATE TABLE product(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            price INTEGER NOT NULL,
            stock INTEGER NOT NULL DEFAULT 0
        );
        """
}

/// How often each binding of a ``ProductViewModel`` ran, kept outside the view model so it
/// can still be read after the view model is released.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class ProductBindingRuns {
    var title = 0
    var subtitle = 0
    var deletions = 0
}

/// A view model with two derived properties: `title` from the name, `subtitle` from the price.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class ProductViewModel: StoreViewModel<Product> {
    var title = ""
    var subtitle = ""
    @ObservationIgnored let runs: ProductBindingRuns

    init(store: Store, id: Int64, runs: ProductBindingRuns = ProductBindingRuns()) {
        self.runs = runs
        super.init(store: store, id: id)
        bindModel(\.name) { viewModel, name in
            viewModel.title = name
            viewModel.runs.title += 1
        }
        bindModel(\.price) { viewModel, price in
            viewModel.subtitle = "\(price) €"
            viewModel.runs.subtitle += 1
        }
    }

    override func objectWasDeleted() {
        runs.deletions += 1
    }
}

/// Waits, without any timing assertion, until `condition` holds; records an issue if it
/// still does not after a generous while (a broken notification path fails instead of hanging).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
func waitUntil(_ what: String, _ condition: @MainActor () -> Bool) async {
    for _ in 0..<2_000 {
        if condition() { return }
        try? await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("gave up waiting until \(what)")
}
