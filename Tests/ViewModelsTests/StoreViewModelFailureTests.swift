import Foundation
import SQLiteStoreCore
import SQLiteStoreViewModels
import Testing

/// A view model learns of the store's failure (its file overwritten, deleted or replaced)
/// in `lastError`, and stops observing.
@MainActor
@Suite("Store view models when the store fails", .timeLimit(.minutes(10)))
struct StoreViewModelFailureTests {
    @Test(arguments: FileDamage.allCases)
    func theStoresFailureLandsInLastErrorAndEndsObservation(_ damage: FileDamage) async throws {
        let directory = try TemporaryDirectory()
        var configuration = StoreConfiguration()
        configuration.externalChangePollInterval = .milliseconds(10)
        let store = try directory.makeStore(configuration: configuration, schema: Product.schema)
        let id = try await store.write { db in
            var product = Product(name: "Tea", price: 3)
            try db.insert(&product)
            return product.id ?? -1
        }
        let viewModel = ProductViewModel(store: store, id: id)
        try viewModel.start()

        let other = try damage.apply(to: directory.path("test.sqlite"), touch: "UPDATE product SET price = price + 1")
        await waitUntil("the failure arrives") { viewModel.lastError != nil }
        #expect(damage.matches(viewModel.lastError as? StoreError))
        await waitUntil("observation ends") { !viewModel.isObserving }
        #expect(!viewModel.isDeleted)
        withExtendedLifetime(other) {}
    }
}
