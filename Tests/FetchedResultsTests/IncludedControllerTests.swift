import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Live results that include related objects: each row comes with its list, owner and
/// labels, and a change to one of them updates exactly the rows that include it.
@MainActor @Suite struct IncludedControllerTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: LabelSchema.script)
        try store.write { db in
            try db.execute(
                script: """
                    INSERT INTO list(id, name) VALUES (1, 'Groceries'), (2, 'Work');
                    INSERT INTO item(id, title, list_id, score) VALUES (1, 'Milk', 1, 1), (2, 'Bread', 1, 2), (3, 'Report', 2, 3);
                    INSERT INTO label(id, name) VALUES (1, 'urgent'), (2, 'home');
                    INSERT INTO item_label(item_id, label_id) VALUES (1, 1), (3, 1);
                    """)
        }
    }

    /// An item as the app shows it.
    struct ItemRow: Decodable, Equatable {
        var item: TodoItem
        var list: TodoList?
        var labels: [Label]
    }

    static let request = StoreRequest<TodoItem>().order(Column("score").ascending).including(TodoItem.list)
        .including(all: TodoItem.labels)

    private func titles(_ rows: [FetchedRow<TodoItem>]) -> [String] {
        rows.map { "\($0.title) \($0.list?.name ?? "-") \($0.labels.map(\.name))" }
    }

    @Test func rowsComeWithTheirIncludedObjectsAndDecodeIntoTheAppsType() throws {
        let controller = FetchedResultsController(store: store, request: Self.request)
        try controller.performFetch()
        #expect(titles(try controller.fetchedRows) == ["Milk Groceries [\"urgent\"]", "Bread Groceries []", "Report Work [\"urgent\"]"])
        let first = try controller.row(at: IndexPath(row: 0, section: 0)).decode(ItemRow.self)
        #expect(first.list?.name == "Groceries" && first.labels.map(\.name) == ["urgent"] && first.item.title == "Milk")
    }

    @Test func aRenamedListUpdatesItsItemsAndNoOthers() async throws {
        let controller = FetchedResultsController(store: store, request: Self.request)
        try controller.performFetch()
        _ = try controller.fetchedRows
        var changes: [ChangeSet] = []
        controller.didChange = { changes.append($0.changeSet) }
        try await store.write { db in try db.execute(sql: "UPDATE list SET name = 'Food' WHERE id = 1") }
        try await controller.waitUntilCurrent()
        #expect(changes.count == 1)
        #expect(Set(changes.first?.updates ?? []) == [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0)])
        #expect(titles(try controller.fetchedRows) == ["Milk Food [\"urgent\"]", "Bread Food []", "Report Work [\"urgent\"]"])
    }

    @Test func labelsAddedRenamedAndDeletedUpdateTheItemsThatCarryThem() async throws {
        let controller = FetchedResultsController(store: store, request: Self.request)
        try controller.performFetch()
        _ = try controller.fetchedRows
        var updates: [Set<IndexPath>] = []
        controller.didChange = { updates.append(Set($0.changeSet.updates)) }
        try await store.write { db in try db.execute(sql: "INSERT INTO item_label(item_id, label_id) VALUES (2, 2)") }
        try await controller.waitUntilCurrent()
        try await store.write { db in try db.execute(sql: "UPDATE label SET name = 'now' WHERE id = 1") }
        try await controller.waitUntilCurrent()
        try await store.write { db in try db.execute(sql: "DELETE FROM item_label WHERE item_id = 1") }
        try await controller.waitUntilCurrent()
        let row = { (row: Int) in IndexPath(row: row, section: 0) }
        #expect(updates == [[row(1)], [row(0), row(2)], [row(0)]])
        #expect(titles(try controller.fetchedRows) == ["Milk Groceries []", "Bread Groceries [\"home\"]", "Report Work [\"now\"]"])
    }

    @Test func listsIncludingTheirItemsFollowItemsInsertedMovedAndDeleted() async throws {
        let request = StoreRequest<TodoList>().order(Column("name").ascending).including(all: TodoList.items)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let items = { try controller.fetchedRows.map { $0.items.map(\.title) } }
        #expect(try items() == [["Milk", "Bread"], ["Report"]])
        var updates: [Set<IndexPath>] = []
        controller.didChange = { updates.append(Set($0.changeSet.updates)) }
        try await store.write { db in try db.execute(sql: "UPDATE item SET list_id = 2 WHERE id = 1") }
        try await controller.waitUntilCurrent()
        try await store.write { db in try db.execute(sql: "DELETE FROM item WHERE id = 3") }
        try await controller.waitUntilCurrent()
        let row = { (row: Int) in IndexPath(row: row, section: 0) }
        #expect(updates == [[row(0), row(1)], [row(1)]])
        #expect(try items() == [["Bread"], ["Milk"]])
    }

    @Test func aWithoutRowIDJoinTableIsReadAgainAndUpdatesOnlyTheChangedRows() async throws {
        let store = try directory.makeStore(
            named: "without-rowid.sqlite",
            schema: TodoItem.schema + """
                CREATE TABLE label(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE item_label(
                    item_id INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                    label_id INTEGER NOT NULL REFERENCES label(id) ON DELETE CASCADE,
                    PRIMARY KEY(item_id, label_id)) WITHOUT ROWID;
                INSERT INTO item(id, title) VALUES (1, 'x'), (2, 'y');
                INSERT INTO label(id, name) VALUES (1, 'urgent');
                """)
        let request = StoreRequest<TodoItem>().order(Column("title").ascending).including(all: TodoItem.labels)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        var updates: [Set<IndexPath>] = []
        controller.didChange = { updates.append(Set($0.changeSet.updates)) }
        try await store.write { db in try db.execute(sql: "INSERT INTO item_label(item_id, label_id) VALUES (1, 1)") }
        try await controller.waitUntilCurrent()
        // SQLite reports a WITHOUT ROWID table's changes for the whole table: every row is read
        // again, and only the one whose labels changed is updated.
        #expect(updates == [[IndexPath(row: 0, section: 0)]])
        #expect(try controller.fetchedRows.map { $0.labels.map(\.name) } == [["urgent"], []])
    }

    @Test func liveResultsDeliverRowsWithTheirIncludedObjects() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) else { return }
        let results = LiveResults(Self.request, in: store)
        try await results.waitUntilCurrent()
        #expect(results.row(at: 0)?.list?.name == "Groceries")
        try await store.write { db in try db.execute(sql: "UPDATE list SET name = 'Food' WHERE id = 1") }
        try await results.waitUntilCurrent()
        #expect(try results.row(at: 1)?.decode(ItemRow.self).list?.name == "Food")
        #expect(results.lastChange?.updates.count == 2)
    }

    @Test func aBatchOfRowsReadsItsIncludedObjectsInOneStatementPerRelationship() throws {
        try store.write { db in
            for item in 4...300 {
                try db.execute(sql: "INSERT INTO item(id, title, list_id, score) VALUES (?, 't', ?, 9)", arguments: [item, item % 2 + 1])
                try db.execute(sql: "INSERT INTO item_label(item_id, label_id) VALUES (?, ?)", arguments: [item, item % 2 + 1])
            }
        }
        let statements = try store.read { db in
            try db.recordingStatements { try db.fetchRows(Self.request, rowIDs: Array(1...100)) }.statements
        }
        // The batch's rows, their lists, their labels.
        #expect(statements.count == 3, "\(statements)")
    }
}
