import Foundation
import SQLiteStoreResults
import SQLiteStoreViewModels
import Testing

@MainActor
@Suite("Data sources")
struct DataSourceTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func rows(_ ids: Int...) -> [ListRow] { ids.map { ListRow(id: $0) } }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func arrayDataSourceShowsItsSectionsAndHeaders() {
        let source = ArrayDataSource(sections: [rows(1, 2), rows(3)], headers: [SectionHeader(title: "A")])
        let list = InMemoryListView(dataSource: source)
        #expect(list.sections == [rows(1, 2), rows(3)])
        #expect(list.headers == [SectionHeader(title: "A"), nil])
        #expect(source.item(at: IndexPath(row: 1, section: 0)) == ListRow(id: 2))
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func eachEditOfAMutableArrayPublishesItsChangeSet() {
        let source = MutableArrayDataSource(sections: [rows(1, 2, 3)])
        let list = InMemoryListView(dataSource: source)
        source.append(ListRow(id: 4))
        source.remove(at: IndexPath(row: 0, section: 0))
        source.move(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 2, section: 0))
        source.replace(at: IndexPath(row: 0, section: 0), with: ListRow(id: 3, version: 1))
        source.insertSection(rows(5), at: 0)
        source.removeSection(at: 1)
        #expect(
            list.appliedChangeSets == [
                ChangeSet(inserts: [IndexPath(row: 3, section: 0)]),
                ChangeSet(deletes: [IndexPath(row: 0, section: 0)]),
                ChangeSet(moves: [.init(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 2, section: 0))]),
                ChangeSet(updates: [IndexPath(row: 0, section: 0)]),
                ChangeSet(sectionInserts: [0]),
                ChangeSet(sectionDeletes: [1]),
            ])
        #expect(list.sections == [rows(5)])
        #expect(list.errors.isEmpty)
        #expect(list.reloadCount == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theListViewReadsUpdatedRowsAgainAndKeepsTheOthers() {
        let source = MutableArrayDataSource(sections: [rows(1, 2)])
        let list = InMemoryListView(dataSource: source)
        source.replace(at: IndexPath(row: 1, section: 0), with: ListRow(id: 2, version: 7))
        #expect(list.sections == [[ListRow(id: 1), ListRow(id: 2, version: 7)]])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aChangeSetThatDoesNotFitIsRecordedAndAnsweredByAReload() {
        let source = MutableArrayDataSource(sections: [rows(1)])
        let list = InMemoryListView(dataSource: source)
        list.performBatchUpdates(ChangeSet(deletes: [IndexPath(row: 5, section: 0)]))
        #expect(list.errors == [.invalidIndexPath(IndexPath(row: 5, section: 0), .delete)])
        #expect(list.reloadCount == 2)
        #expect(list.sections == [rows(1)])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theStreamDeliversEveryChangeSetInOrder() async {
        let source = MutableArrayDataSource(items: rows(1))
        let stream = source.changes.stream()
        source.append(ListRow(id: 2))
        source.remove(at: IndexPath(row: 0, section: 0))
        var received: [ChangeSet] = []
        for await changeSet in stream {
            received.append(changeSet)
            if received.count == 2 { break }
        }
        #expect(
            received == [
                ChangeSet(inserts: [IndexPath(row: 1, section: 0)]),
                ChangeSet(deletes: [IndexPath(row: 0, section: 0)]),
            ])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func multiSectionShiftsAChildsSectionsByThoseBeforeIt() {
        let first = MutableArrayDataSource(sections: [rows(1), rows(2)])
        let second = MutableArrayDataSource(sections: [rows(3)])
        let composite = MultiSectionDataSource<ListRow>(children: [first, second])
        let list = InMemoryListView(dataSource: composite)
        second.append(ListRow(id: 4))
        first.removeSection(at: 0)
        #expect(
            list.appliedChangeSets == [
                ChangeSet(inserts: [IndexPath(row: 1, section: 2)]),
                ChangeSet(sectionDeletes: [0]),
            ])
        #expect(list.sections == [rows(2), rows(3, 4)])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func multiSectionPublishesTheSectionsOfAddedAndRemovedChildren() {
        let composite = MultiSectionDataSource<ListRow>(children: [ArrayDataSource(items: rows(1))])
        let list = InMemoryListView(dataSource: composite)
        composite.insertChild(ArrayDataSource(sections: [rows(2), rows(3)]), at: 0)
        composite.removeChild(at: 1)
        #expect(list.appliedChangeSets == [ChangeSet(sectionInserts: [0, 1]), ChangeSet(sectionDeletes: [2])])
        #expect(list.sections == [rows(2), rows(3)])
        #expect(composite.childDataSources.count == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func multiRowFlattensAChildsSectionsIntoRows() {
        let first = MutableArrayDataSource(sections: [rows(1, 2)])
        let second = MutableArrayDataSource(sections: [rows(3), rows(4, 5)])
        let composite = MultiRowDataSource<ListRow>(children: [first, second])
        let list = InMemoryListView(dataSource: composite)
        second.move(from: IndexPath(row: 1, section: 1), to: IndexPath(row: 0, section: 0))
        second.removeSection(at: 1)
        first.remove(at: IndexPath(row: 0, section: 0))
        #expect(
            list.appliedChangeSets == [
                ChangeSet(moves: [.init(from: IndexPath(row: 4, section: 0), to: IndexPath(row: 2, section: 0))]),
                ChangeSet(deletes: [IndexPath(row: 4, section: 0)]),
                ChangeSet(deletes: [IndexPath(row: 0, section: 0)]),
            ])
        #expect(list.sections == [rows(2, 5, 3)])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func multiRowPublishesTheRowsOfAddedAndRemovedChildren() {
        let composite = MultiRowDataSource<ListRow>(children: [ArrayDataSource(items: rows(1))], header: SectionHeader(title: "All"))
        let list = InMemoryListView(dataSource: composite)
        composite.insertChild(ArrayDataSource(sections: [rows(2), rows(3)]), at: 0)
        composite.removeChild(at: 1)
        #expect(
            list.appliedChangeSets == [
                ChangeSet(inserts: [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0)]),
                ChangeSet(deletes: [IndexPath(row: 2, section: 0)]),
            ])
        #expect(list.sections == [rows(2, 3)])
        #expect(list.headers == [SectionHeader(title: "All")])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func groupsAppearAndDisappearWithTheirKeys() {
        let grouped = GroupedDataSource(items: rows(4, 1, 6), key: { $0.id % 2 == 0 ? "even" : "odd" })
        let list = InMemoryListView(dataSource: grouped)
        #expect(list.sections == [rows(4, 6), rows(1)])
        grouped.remove(at: IndexPath(row: 0, section: 1))
        grouped.append(ListRow(id: 8))
        grouped.append(ListRow(id: 3))
        #expect(
            list.appliedChangeSets == [
                ChangeSet(sectionDeletes: [1]),
                ChangeSet(inserts: [IndexPath(row: 2, section: 0)]),
                ChangeSet(sectionInserts: [1]),
            ])
        #expect(grouped.keys == ["even", "odd"])
        #expect(list.headers == [SectionHeader(title: "even"), SectionHeader(title: "odd")])
        #expect(list.sections == [rows(4, 6, 8), rows(3)])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func anItemWhoseKeyChangesMovesToItsNewGroup() {
        let grouped = GroupedDataSource(items: [ListRow(id: 1), ListRow(id: 2)], key: \.version)
        let checker = ChangeSetChecker(grouped)
        grouped.replace(at: IndexPath(row: 0, section: 0), with: ListRow(id: 1, version: 1))
        grouped.replace(at: IndexPath(row: 0, section: 1), with: ListRow(id: 1, version: 1))
        #expect(grouped.allItems == [[ListRow(id: 2)], [ListRow(id: 1, version: 1)]])
        #expect(checker.changeSets.count == 3)
        #expect(checker.failures.isEmpty)
    }
}
