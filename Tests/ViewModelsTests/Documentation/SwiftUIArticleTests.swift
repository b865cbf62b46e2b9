// The snippets of the SwiftUI article (SQLiteStoreViewModels.docc/SwiftUI.md), verbatim: edit
// both together. The views compile where SwiftUI exists; what they call is tested everywhere.
import Foundation
import Observation
import SQLiteStoreCore
import SQLiteStoreMacros
import SQLiteStoreResults
import SQLiteStoreViewModels
import Testing

#if canImport(SwiftUI)
import SwiftUI
#endif

@StoreModel(table: "grocery")
struct Grocery: Identifiable, Equatable {
    var id: Int64  // never nil: rows are inserted as a `Grocery.Draft`, whose key is optional
    var title: String
    var aisle: String
    var done: Bool = false
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor @Observable final class GroceryList {
    let groceries: LiveResults<Grocery>
    private(set) var lastError: (any Error)?
    let store: Store

    init(store: Store) {
        self.store = store
        groceries = LiveResults(
            StoreRequest<Grocery>()
                .order(Column("aisle").ascending, Column("title").ascending)
                .sectioned(by: Column("aisle")), in: store)
    }

    func grocery(section: Int, row: Int) -> Grocery? {
        groceries.object(at: IndexPath(row: row, section: section))
    }

    func add(_ title: String, aisle: String) async {
        do {
            try await store.write { db in _ = try db.insert(Grocery.Draft(title: title, aisle: aisle)) }
            try await groceries.waitUntilCurrent()  // read your writes: the row is shown now
        } catch {
            lastError = error
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor final class ShoppingBadge {
    @LiveQuery(StoreRequest<Grocery>().filter(Column("done") == false)) var groceries

    var text: String { "\(groceries.count) to buy" }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@Observable final class GroceryDetail: StoreViewModel<Grocery> {
    var title = ""
    var isDone = false
    override init(store: Store, id: Int64) {
        super.init(store: store, id: id)
        bindModel(\.title) { detail, title in detail.title = title }
        bindModel(\.done) { detail, done in detail.isDone = done }
    }
}

/// Returns once `aisle` holds at least `count` groceries: at once if it does already.
@MainActor func waitForGroceries(inAisle aisle: String, count: Int, in store: Store) async throws {
    let groceries = FetchedResultsController(store: store, request: StoreRequest<Grocery>().filter(Column("aisle") == aisle))
    for try await change in groceries.changes(initial: true) where change.results.numberOfObjects >= count { return }
}

#if canImport(SwiftUI)
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
struct ShoppingView: View {
    @LiveQuery(StoreRequest<Grocery>().filter(Column("done") == false).order(Column("title").ascending)) var groceries

    var body: some View {
        List(groceries) { grocery in Text(grocery.title) }
            .overlay {
                if let failure = groceries.failure { Text("The list stopped: \(failure.description)") }
            }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
struct ShoppingRoot: View {
    let store: Store

    var body: some View {
        ShoppingView().environment(\.store, store)
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct GroceriesView: View {
    @State private var list: GroceryList
    @State private var newTitle = ""

    init(store: Store) { _list = State(initialValue: GroceryList(store: store)) }

    var body: some View {
        NavigationStack {
            List {
                ForEach(Array(list.groceries.sections.enumerated()), id: \.offset) { entry in
                    Section(entry.element.name ?? "Other") {
                        ForEach(0..<entry.element.numberOfObjects, id: \.self) { row in
                            if let grocery = list.grocery(section: entry.offset, row: row) {
                                NavigationLink(grocery.title) { GroceryDetailView(store: list.store, id: grocery.id) }
                            }
                        }
                    }
                }
            }
            .overlay {
                if let failure = list.groceries.failure { Text("The list stopped: \(failure.localizedDescription)") }
            }
            .safeAreaInset(edge: .bottom) {
                TextField("Add a grocery", text: $newTitle)
                    .onSubmit {
                        Task {
                            await list.add(newTitle, aisle: "Other"); newTitle = ""
                        }
                    }
            }
        }
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct GroceryDetailView: View {
    @State private var detail: GroceryDetail

    init(store: Store, id: Int64) { _detail = State(initialValue: GroceryDetail(store: store, id: id)) }

    var body: some View {
        Form {
            Text(detail.title)
            Text(detail.isDeleted ? "Deleted" : detail.isDone ? "Done" : "To buy")
        }
        .task { try? detail.start() }
        .onDisappear { detail.stop() }
    }
}
#endif

/// What the article's views call, on every platform: the sections the list shows, an insert
/// read back at once, the detail following its row, and a failure shown instead of a crash.
@MainActor
@Suite(.timeLimit(.minutes(10))) struct SwiftUIArticleTests {
    let directory: TemporaryDirectory
    let store: Store

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: """
                CREATE TABLE grocery(id INTEGER PRIMARY KEY, title TEXT NOT NULL, aisle TEXT NOT NULL, done INTEGER NOT NULL);
                INSERT INTO grocery(title, aisle, done) VALUES ('Milk', 'dairy', 0), ('Bread', 'bakery', 0), ('Butter', 'dairy', 1);
                """)
    }

    /// What `ShoppingView` and `ShoppingBadge` show: the open groceries, following the store,
    /// from the default store (the task's here; the environment's in a view).
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func theOneLineListFollowsTheDefaultStore() async throws {
        let badge = await Store.withDefault(store) { ShoppingBadge() }
        let shopping = await Store.withDefault(store) {
            LiveQuery(StoreRequest<Grocery>().filter(Column("done") == false).order(Column("title").ascending))
        }
        #expect(badge.text == "0 to buy" && badge.groceries.isLoading)
        while badge.groceries.isLoading || shopping.wrappedValue.isLoading { try await Task.sleep(for: .milliseconds(1)) }
        #expect(badge.text == "2 to buy")
        #expect(shopping.wrappedValue.map(\.title) == ["Bread", "Milk"])
        try await store.write { db in try db.execute(sql: "UPDATE grocery SET done = 1 WHERE title = 'Milk'") }
        while badge.groceries.count != 1 || shopping.wrappedValue.count != 1 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(badge.text == "1 to buy" && shopping.wrappedValue.map(\.id) == [2])
        try await store.write { db in try db.execute(sql: "DROP TABLE grocery") }
        while shopping.wrappedValue.failure == nil { try await Task.sleep(for: .milliseconds(1)) }
        #expect(shopping.wrappedValue.map(\.title) == ["Bread"], "the values stay as they were")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theListShowsSectionsAndReadsItsOwnWrites() async throws {
        let list = GroceryList(store: store)
        try await list.groceries.waitUntilCurrent()
        #expect(list.groceries.sections.map(\.name) == ["bakery", "dairy"])
        #expect(list.groceries.sections.map(\.numberOfObjects) == [1, 2])
        #expect(list.grocery(section: 1, row: 0)?.title == "Butter")
        await list.add("Apples", aisle: "fruit")
        #expect(list.lastError == nil)
        #expect(list.groceries.sections.map(\.name) == ["bakery", "dairy", "fruit"])
        #expect(list.grocery(section: 2, row: 0)?.title == "Apples")
    }

    /// The stream starts its controller, which nobody fetched: it answers at once for what the
    /// aisle holds, and after the transaction that brings the aisle to the count asked for.
    @Test func theStreamStartsItsControllerItself() async throws {
        try await waitForGroceries(inAisle: "dairy", count: 2, in: store)
        let returned = Flag()
        let waiting = Task {
            try await waitForGroceries(inAisle: "fruit", count: 2, in: store)
            returned.isSet = true
        }
        let apples = try await store.write { db in try db.insert(Grocery.Draft(title: "Apples", aisle: "fruit")) }
        #expect(apples.id == 4 && apples.done == false)
        try await Task.sleep(for: .milliseconds(100))
        #expect(!returned.isSet, "one grocery in the aisle is not two")
        _ = try await store.write { db in try db.insert(Grocery.Draft(title: "Pears", aisle: "fruit")) }
        try await waiting.value
        #expect(returned.isSet)
    }

    @MainActor final class Flag { var isSet = false }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theDetailFollowsItsRowUntilItIsDeleted() async throws {
        let detail = GroceryDetail(store: store, id: 1)
        try detail.start()
        #expect(detail.title == "Milk" && !detail.isDone)
        try await store.write { db in try db.execute(sql: "UPDATE grocery SET done = 1 WHERE id = 1") }
        while !detail.isDone { try await Task.sleep(for: .milliseconds(1)) }
        try await store.write { db in try db.execute(sql: "DELETE FROM grocery WHERE id = 1") }
        while !detail.isDeleted { try await Task.sleep(for: .milliseconds(1)) }
        detail.stop()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFailedWriteAndABrokenRequestAreReportedNotFatal() async throws {
        let list = GroceryList(store: store)
        try await list.groceries.waitUntilCurrent()
        #expect(list.groceries.count == 3)
        try await store.write { db in
            try db.execute(
                sql: "CREATE TRIGGER no_fish BEFORE INSERT ON grocery WHEN NEW.aisle = 'fish' BEGIN SELECT RAISE(ABORT, 'no fish'); END")
        }
        await list.add("Cod", aisle: "fish")
        #expect((list.lastError as? StoreError)?.code == .constraint)
        try await store.write { db in try db.execute(sql: "DROP TABLE grocery") }
        try? await list.groceries.waitUntilCurrent()
        #expect(list.groceries.failure != nil)
        #expect(list.groceries.count == 3)
    }
}
