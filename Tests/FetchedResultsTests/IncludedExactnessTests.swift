import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Live results that include related objects and counts report, in one change set per
/// committed transaction, exactly the rows whose included values changed: on the re-read
/// path too, after another process's commit, for many-to-many counts (reading only the rows
/// whose pairs changed), and through `LiveValues`.
@MainActor @Suite struct IncludedExactnessTests {
    let database: LabelDatabase
    var store: Store { database.store }

    /// People (`Person.schema`), lists that they own, items, and labels 1 to 5 with unique names.
    init() throws {
        database = try LabelDatabase(adding: Person.schema + "CREATE UNIQUE INDEX label_name ON label(name);")
        try database.store.write { db in
            try db.execute(
                script: """
                    INSERT INTO label(id, name) VALUES (4, 'd'), (5, 'e');
                    INSERT INTO person(id, name) VALUES (1, 'Ann'), (2, 'Dan');
                    INSERT INTO list(id, name, person_id) VALUES (1, 'L1', 1), (2, 'L2', 1), (3, 'L3', 2);
                    INSERT INTO item(id, title, list_id, score) VALUES
                        (1, 'one', 1, 1), (2, 'two', 1, 2), (3, 'three', 2, 3), (4, 'four', 2, 4), (5, 'five', 3, 5);
                    INSERT INTO item_label(item_id, label_id) VALUES (1, 1), (2, 2), (3, 4), (4, 1), (4, 2), (5, 4);
                    """)
        }
    }

    private static func row(_ row: Int, _ section: Int = 0) -> IndexPath { IndexPath(row: row, section: section) }

    /// Follows `controller`, collecting the change sets of each transaction.
    private func changeSets(of controller: FetchedResultsController<some StoreModel>) -> () -> [ChangeSet] {
        var delivered: [ChangeSet] = []
        controller.didChange = { delivered.append($0.changeSet) }
        return {
            defer { delivered = [] }
            return delivered
        }
    }

    @Test func aReReadOfTheResultsStillUpdatesTheRowsWhosePairsCascaded() async throws {
        let request = StoreRequest<TodoItem>().filter(TodoItem.list.then(TodoList.person).name < "C")
            .order(TodoItem.list.name.descending, Column("id").ascending).including(all: TodoItem.labels)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        #expect(
            try controller.fetchedRows.map { "\($0.title) \($0.labels.map(\.name))" } == [
                "three [\"d\"]", "four [\"a\", \"b\"]", "one [\"a\"]", "two [\"b\"]",
            ])
        let taken = changeSets(of: controller)
        try await store.write { db in
            try db.execute(sql: "UPDATE item SET list_id = NULL WHERE id = 1")
            // Label 5 takes label 4's name: REPLACE deletes label 4, and its pairs cascade.
            try db.execute(sql: "UPDATE OR REPLACE label SET name = 'd' WHERE id = 5")
        }
        try await controller.waitUntilCurrent()
        let delivered = taken()
        #expect(delivered.count == 1)
        #expect(delivered.first?.deletes == [Self.row(2)])
        #expect(delivered.first?.updates == [Self.row(0)], "item three lost label d; nothing else changed")
        #expect(
            try controller.fetchedRows.map { "\($0.title) \($0.labels.map(\.name))" } == ["three []", "four [\"a\", \"b\"]", "two [\"b\"]"])
    }

    @Test func aManyToManyCountUpdatesOnlyTheRowsWhoseCountChangedReadingOnlyThem() async throws {
        let request = StoreRequest<TodoItem>().order(Column("id").ascending).including(TodoItem.labels.count, as: "labels")
            .including(TodoItem.labels.count { $0.name != "a" }, as: "others")
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let counts = { try controller.fetchedRows.map { "\($0.count(named: "labels"))/\($0.count(named: "others"))" } }
        #expect(try counts() == ["1/0", "1/1", "1/1", "2/1", "1/1"])
        let taken = changeSets(of: controller)
        try await store.write { db in
            try db.execute(sql: "UPDATE OR IGNORE item_label SET label_id = 2 WHERE item_id = 2 AND label_id = 2")
        }
        try await controller.waitUntilCurrent()
        #expect(taken().isEmpty, "a pair rewritten as it was changes no count")
        let rowsRead = controller.rowsRead
        try await store.write { db in try db.execute(sql: "INSERT INTO item_label(item_id, label_id) VALUES (3, 2)") }
        try await controller.waitUntilCurrent()
        #expect(taken().map(\.updates) == [[Self.row(2)]])
        #expect(controller.rowsRead - rowsRead == 1, "only the row whose pairs changed is read again")
        // Renamed `a`: the conditional count of the items labelled `a` changes, not their count.
        try await store.write { db in try db.execute(sql: "UPDATE label SET name = 'z' WHERE id = 1") }
        try await controller.waitUntilCurrent()
        #expect(taken().map { Set($0.updates) } == [[Self.row(0), Self.row(3)]])
        #expect(try counts() == ["1/1", "1/1", "2/2", "2/2", "1/1"])
        // Renamed with the same name: no count changes.
        try await store.write { db in try db.execute(sql: "UPDATE label SET name = 'b' WHERE id = 2") }
        try await controller.waitUntilCurrent()
        #expect(taken().isEmpty)
    }

    @Test func oneTransactionChangingRowsAndIncludedObjectsIsOneChangeSet() async throws {
        let request = StoreRequest<TodoItem>().order(TodoItem.list.name.ascending, Column("id").ascending)
            .sectioned(by: TodoItem.list.name.column).including(TodoItem.list).including(all: TodoItem.labels)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let taken = changeSets(of: controller)
        var sequence = controller.changes().makeAsyncIterator()
        // Counted where they are made: a consumer that takes its change late gets two merged.
        var posted = controller.changeSetsPosted
        try await store.write { db in
            try db.execute(sql: "UPDATE item SET title = 'uno' WHERE id = 1")
            try db.execute(sql: "UPDATE label SET name = 'bb' WHERE id = 2")
        }
        try await controller.waitUntilCurrent()
        let delivered = taken()
        #expect(delivered.count == 1 && controller.changeSetsPosted == posted + 1)
        #expect(Set(delivered.first?.updates ?? []) == [Self.row(0), Self.row(1), Self.row(1, 1)])
        let element = try await sequence.next()
        #expect(element?.changeSet == delivered.first)
        // A rename of the list the results are sectioned by, which they include.
        posted = controller.changeSetsPosted
        try await store.write { db in try db.execute(sql: "UPDATE list SET name = 'L0' WHERE id = 3") }
        try await controller.waitUntilCurrent()
        let renames = taken()
        #expect(renames.count == 1 && controller.changeSetsPosted == posted + 1)
        #expect(controller.sections.map(\.name) == ["L0", "L1", "L2"])
        let renamed = try await sequence.next()
        #expect(renamed?.changeSet == renames.first)
    }

    @Test func afterAnotherProcessCommitsOnlyTheChangedRowsAreUpdated() async throws {
        let request = StoreRequest<TodoItem>().order(Column("id").ascending).including(TodoItem.list).including(all: TodoItem.labels)
            .including(TodoItem.labels.count, as: "labelCount")
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let taken = changeSets(of: controller)
        try await database.other.write { db in try db.execute(sql: "UPDATE label SET name = 'bb' WHERE id = 2") }
        try store.checkForExternalChanges()
        try await controller.waitUntilCurrent()
        #expect(taken().map { Set($0.updates) } == [[Self.row(1), Self.row(3)]])
        try await database.other.write { db in try db.execute(sql: "UPDATE list SET name = 'L1' WHERE id = 1") }
        try store.checkForExternalChanges()
        try await controller.waitUntilCurrent()
        #expect(taken().isEmpty, "a list rewritten with its values changes no row")
    }

    @Test func liveTargetsAreFilteredAndOrderedAsTheOneShotFetchReadsThem() async throws {
        let targets = StoreRequest<Label>().filter(Label.columns.name < "d").order(Column("name").descending)
        let request = StoreRequest<TodoItem>().order(Column("id").ascending).including(all: TodoItem.labels, targets: targets)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let shown = { try controller.fetchedRows.map { $0.labels.map(\.name) } }
        #expect(try shown() == [["a"], ["b"], [], ["b", "a"], []])
        let taken = changeSets(of: controller)
        try await store.write { db in try db.execute(sql: "UPDATE label SET name = 'bb' WHERE id = 2") }
        try await controller.waitUntilCurrent()
        #expect(taken().map { Set($0.updates) } == [[Self.row(1), Self.row(3)]])
        #expect(try shown() == [["a"], ["bb"], [], ["bb", "a"], []])
        try await store.write { db in try db.execute(sql: "UPDATE label SET name = 'z' WHERE id = 4") }
        try await controller.waitUntilCurrent()
        #expect(taken().isEmpty, "label 4 is filtered out before and after")
        try await store.write { db in try db.execute(sql: "INSERT INTO item_label(item_id, label_id) VALUES (1, 3)") }
        try await controller.waitUntilCurrent()
        #expect(taken().map(\.updates) == [[Self.row(0)]])
        let fetched = try await store.read { db in
            try db.fetch(StoreRequest<TodoItem>().order(Column("id").ascending), including: TodoItem.labels, targets: targets)
                .map { $0.1.map(\.name) }
        }
        #expect(try shown() == fetched)
        #expect(fetched == [["c", "a"], ["bb"], [], ["bb", "a"], []])
    }

    @Test func liveValuesFollowARequestWithIncludes() async throws {
        let request = StoreRequest<TodoItem>().order(Column("id").ascending).including(TodoItem.list).including(all: TodoItem.labels)
        var values = LiveValues(request, in: store).makeAsyncIterator()
        let first = try await values.next()
        #expect(first?.values.map(\.title) == ["one", "two", "three", "four", "five"])
        try await store.write { db in
            try db.execute(sql: "UPDATE item SET title = 'uno' WHERE id = 1")
            try db.execute(sql: "UPDATE label SET name = 'bb' WHERE id = 2")
        }
        let next = try await values.nextOfCommitted()
        #expect(next?.values.map(\.title) == ["uno", "two", "three", "four", "five"])
        #expect(Set(next?.changeSet.updates ?? []) == [Self.row(0), Self.row(1), Self.row(3)])
    }
}
