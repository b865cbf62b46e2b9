import Foundation
import SQLiteStoreCore
import SQLiteStoreResults
import SQLiteStoreViewModels
import Testing

@MainActor
@Suite("Data source lifetimes")
struct DataSourceLifetimeTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aReleasedCompositeIsFreedAndItsSubscribersHearNothingMore() {
        let leaf = MutableArrayDataSource(items: [ListRow(id: 1)])
        var composite: MultiSectionDataSource<ListRow>? = MultiSectionDataSource(children: [leaf])
        var rows: MultiRowDataSource<ListRow>? = MultiRowDataSource(children: [leaf])
        var grouped: GroupedDataSource<Int, ListRow>? = GroupedDataSource(items: [ListRow(id: 1)], key: \.version)
        weak let weakComposite = composite
        weak let weakRows = rows
        weak let weakGrouped = grouped
        var calls = 0
        let subscriptions = [composite?.changes, rows?.changes].compactMap { $0?.subscribe { _ in calls += 1 } }
        leaf.append(ListRow(id: 2))
        #expect(calls == 2)
        composite = nil
        rows = nil
        grouped = nil
        #expect(weakComposite == nil)
        #expect(weakRows == nil)
        #expect(weakGrouped == nil)
        leaf.append(ListRow(id: 3))
        #expect(calls == 2)
        #expect(!leaf.changes.hasSubscribers)
        _ = subscriptions
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aRemovedChildNoLongerReachesTheComposite() {
        let leaf = MutableArrayDataSource(items: [ListRow(id: 1)])
        let composite = MultiSectionDataSource<ListRow>(children: [leaf])
        let checker = ChangeSetChecker(composite)
        composite.removeChild(at: 0)
        leaf.append(ListRow(id: 2))
        #expect(checker.changeSets == [ChangeSet(sectionDeletes: [0])])
        #expect(!leaf.changes.hasSubscribers)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func cancelledAndReleasedSubscriptionsGetNoMoreCalls() {
        let source = MutableArrayDataSource<ListRow>()
        var cancelledCalls = 0
        var releasedCalls = 0
        let cancelled = source.changes.subscribe { _ in cancelledCalls += 1 }
        var released: ChangeSetSubscription? = source.changes.subscribe { _ in releasedCalls += 1 }
        source.append(ListRow(id: 1))
        cancelled.cancel()
        released = nil
        source.append(ListRow(id: 2))
        #expect(cancelledCalls == 1)
        #expect(releasedCalls == 1)
        #expect(released == nil)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aListViewKeepsItsDataSourceUntilDetached() {
        var source: MutableArrayDataSource<ListRow>? = MutableArrayDataSource(items: [ListRow(id: 1)])
        weak let weakSource = source
        let list = source.map { InMemoryListView(dataSource: $0) }
        source = nil
        weakSource?.append(ListRow(id: 2))
        #expect(list?.sections.map { $0.map(\.id) } == [[1, 2]], "the view still follows its data source")
        list?.detach()
        #expect(weakSource == nil)
        #expect(list?.sections.map { $0.map(\.id) } == [[1, 2]], "the rows shown stay")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aListViewOfAFetchedDataSourceNobodyElseHoldsKeepsUpdating() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: Chore.schema)
        func chores() throws -> FetchedDataSource<Chore, String> {
            let chores = FetchedDataSource(
                store: store, request: StoreRequest<Chore>().order(Column("title").ascending),
                placeholder: { _ in "…" }, makeViewModel: \.title)
            try chores.performFetch()
            return chores
        }
        let list = InMemoryListView(dataSource: try chores())
        try await store.write { db in try db.execute(sql: "INSERT INTO chore(title, room, rank) VALUES ('dishes', 'kitchen', 1)") }
        await waitUntil("the list shows the insert") { list.sections == [["dishes"]] }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func releasingADataSourceEndsItsStreams() async {
        var source: MutableArrayDataSource<ListRow>? = MutableArrayDataSource()
        let stream = source?.changes.stream() ?? AsyncStream(unfolding: { nil })
        source?.append(ListRow(id: 1))
        source = nil
        var received = 0
        for await _ in stream {
            received += 1
        }
        #expect(received == 1)
    }
}
