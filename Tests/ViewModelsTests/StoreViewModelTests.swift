import Foundation
import SQLiteStoreCore
import SQLiteStoreViewModels
import Testing

@MainActor
@Suite("Store view models")
struct StoreViewModelTests {
    private let directory: TemporaryDirectory
    private let store: Store

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Product.schema)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func insert(_ product: Product) throws -> Int64 {
        var product = product
        try store.write { db in try db.insert(&product) }
        return product.id ?? -1
    }

    /// Updates the row from another task, as another part of an app would.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func update(_ id: Int64, _ edit: @escaping @Sendable (inout Product) -> Void) async throws {
        let store = store
        try await Task.detached {
            try store.write { db in
                guard var product = try db.fetchOne(Product.self, id: id) else { return }
                edit(&product)
                try db.update(product)
            }
        }.value
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func startRunsEveryBindingOnce() throws {
        let id = try insert(Product(name: "Tea", price: 3))
        let viewModel = ProductViewModel(store: store, id: id)
        try viewModel.start()
        #expect(viewModel.title == "Tea")
        #expect(viewModel.subtitle == "3 €")
        #expect(viewModel.runs.title == 1 && viewModel.runs.subtitle == 1)
        #expect(viewModel.isObserving)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func derivedPropertiesFollowTheRowThroughUpdatesFromAnotherTask() async throws {
        let id = try insert(Product(name: "Tea", price: 3))
        let viewModel = ProductViewModel(store: store, id: id)
        try viewModel.start()
        try await update(id) {
            $0.name = "Green tea"; $0.price = 4
        }
        await waitUntil("the update arrives") { viewModel.subtitle == "4 €" }
        #expect(viewModel.title == "Green tea")
        try await update(id) { $0.price = 5 }
        await waitUntil("the second update arrives") { viewModel.subtitle == "5 €" }
        #expect(viewModel.object == Product(id: id, name: "Green tea", price: 5))
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func onlyTheBindingsWhoseValuesChangedRun() async throws {
        let id = try insert(Product(name: "Tea", price: 3))
        let other = try insert(Product(name: "Coffee", price: 2))
        let viewModel = ProductViewModel(store: store, id: id)
        try viewModel.start()
        try await update(id) { $0.name = "Green tea" }
        await waitUntil("the name arrives") { viewModel.title == "Green tea" }
        #expect(viewModel.runs.title == 2 && viewModel.runs.subtitle == 1)
        try await update(id) { $0.stock = 9 }
        try await update(other) { $0.name = "Espresso" }
        try await update(id) { $0.name = "Green tea" }
        await waitUntil("the stock arrives") { viewModel.object?.stock == 9 }
        try await update(id) { $0.price = 4 }
        await waitUntil("the price arrives") { viewModel.subtitle == "4 €" }
        #expect(viewModel.runs.title == 2)
        #expect(viewModel.runs.subtitle == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func deletionIsReportedOnceAndStopsObservation() async throws {
        let id = try insert(Product(name: "Tea", price: 3))
        let sentinelID = try insert(Product(name: "Coffee", price: 2))
        let viewModel = ProductViewModel(store: store, id: id)
        let sentinel = ProductViewModel(store: store, id: sentinelID)
        try viewModel.start()
        try sentinel.start()
        try await viewModel.delete()
        await waitUntil("the deletion arrives") { viewModel.isDeleted }
        try await viewModel.delete()
        try await store.write { db in try db.execute(sql: "INSERT INTO product(id, name, price) VALUES (?, 'Back', 1)", arguments: [id]) }
        try await update(sentinelID) { $0.price = 7 }
        await waitUntil("the sentinel sees the later write") { sentinel.subtitle == "7 €" }
        #expect(viewModel.runs.deletions == 1)
        #expect(!viewModel.isObserving)
        #expect(viewModel.object == nil)
        #expect(viewModel.title == "Tea")
        #expect(viewModel.runs.title == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aMissingObjectIsReportedDeletedOnStart() throws {
        let viewModel = ProductViewModel(store: store, id: 404)
        try viewModel.start()
        try viewModel.start()
        #expect(viewModel.isDeleted)
        #expect(viewModel.runs.deletions == 1)
        #expect(viewModel.runs.title == 0)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aReleasedViewModelIsFreedAndGetsNoMoreCallbacks() async throws {
        let id = try insert(Product(name: "Tea", price: 3))
        let runs = ProductBindingRuns()
        var viewModel: ProductViewModel? = ProductViewModel(store: store, id: id, runs: runs)
        weak let released = viewModel
        try viewModel?.start()
        viewModel = nil
        #expect(released == nil)
        let sentinel = ProductViewModel(store: store, id: id)
        try sentinel.start()
        try await update(id) {
            $0.name = "Green tea"; $0.price = 4
        }
        try await update(id) { $0.price = 5 }
        try await store.write { db in _ = try db.delete(Product.self, id: id) }
        await waitUntil("the sentinel sees the deletion") { sentinel.isDeleted }
        #expect(runs.title == 1 && runs.subtitle == 1 && runs.deletions == 0)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func stopEndsObservationAndStartRunsTheBindingsAfresh() async throws {
        let id = try insert(Product(name: "Tea", price: 3))
        let viewModel = ProductViewModel(store: store, id: id)
        let sentinel = ProductViewModel(store: store, id: id)
        try viewModel.start()
        try sentinel.start()
        viewModel.stop()
        try await update(id) { $0.name = "Green tea" }
        await waitUntil("the sentinel sees the update") { sentinel.title == "Green tea" }
        #expect(viewModel.title == "Tea")
        try viewModel.start()
        #expect(viewModel.title == "Green tea")
        #expect(viewModel.runs.title == 2 && viewModel.runs.subtitle == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func saveEditsTheStoredObjectAndTheViewModelFollows() async throws {
        let id = try insert(Product(name: "Tea", price: 3))
        let viewModel = ProductViewModel(store: store, id: id)
        try viewModel.start()
        try await viewModel.save { $0.price = 6 }
        await waitUntil("the saved price arrives") { viewModel.subtitle == "6 €" }
        let stored = try await store.read { db in try db.fetchOne(Product.self, id: id) }
        #expect(stored?.price == 6)
        try await viewModel.delete()
        await #expect(throws: StoreViewModelError.objectDeleted(viewModel.objectID)) {
            try await viewModel.save { $0.price = 7 }
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aReleasedStoreNeverCrashesTheViewModel() async throws {
        var store: Store? = try directory.makeStore(named: "other.sqlite", schema: Product.schema)
        let id = try await store?.write { db in
            var product = Product(name: "Tea", price: 3)
            try db.insert(&product)
            return product.id
        }
        let viewModel = try #require(store.map { ProductViewModel(store: $0, id: id ?? -1) })
        try viewModel.start()
        store = nil
        await #expect(throws: StoreViewModelError.storeReleased) { try await viewModel.save { $0.price = 1 } }
        viewModel.stop()
        #expect(throws: StoreViewModelError.storeReleased) { try viewModel.start() }
        #expect(viewModel.title == "Tea")
    }
}
