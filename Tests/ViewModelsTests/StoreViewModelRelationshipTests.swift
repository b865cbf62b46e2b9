import Foundation
import SQLiteStoreCore
import SQLiteStoreViewModels
import Testing

@MainActor
@Suite("Store view models across a to-one relationship")
struct StoreViewModelRelationshipTests {
    private let directory: TemporaryDirectory

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A store with lists 1 "Home" and 2 "Work", and item 1 "Milk" in list 1.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func makeStore(onDelete rule: String = "SET NULL") throws -> Store {
        let store = try directory.makeStore(schema: TodoItem.schema(onDelete: rule))
        try store.write { db in
            try db.execute(
                script: """
                    INSERT INTO list(id, name) VALUES (1, 'Home'), (2, 'Work');
                    INSERT INTO item(id, title, list_id) VALUES (1, 'Milk', 1), (2, 'Mail', 2);
                    """)
        }
        return store
    }

    /// Another store on the same file with foreign keys off, as the `sqlite3` tool opens it:
    /// its commits are another connection's, seen by the store's external-change checks.
    private func connectionWithoutForeignKeys() throws -> Store {
        var configuration = StoreConfiguration()
        configuration.foreignKeys = false
        return try Store(path: directory.path("test.sqlite"), configuration: configuration)
    }

    /// Runs `sql` in a write transaction from another task, as another part of an app would.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func write(_ store: Store, _ sql: String) async throws {
        try await Task.detached { try store.write { db in try db.execute(script: sql) } }.value
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func startRunsTheRelatedBindingWithTheRelatedValue() throws {
        let store = try makeStore()
        try store.write { db in try db.execute(sql: "INSERT INTO item(id, title) VALUES (3, 'Loose')") }
        let item = TodoItemViewModel(store: store, id: 1)
        let loose = TodoItemViewModel(store: store, id: 3)
        try item.start()
        try loose.start()
        #expect(item.listName == "Home" && item.runs.listName == 1)
        #expect(loose.listName == nil && loose.runs.listName == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func renamingTheRelatedRowRunsTheBindingOnceWithTheNewName() async throws {
        let store = try makeStore()
        let item = TodoItemViewModel(store: store, id: 1)
        try item.start()
        try await write(store, "UPDATE list SET name = 'House' WHERE id = 1")
        await waitUntil("the new name arrives") { item.listName == "House" }
        // A later change of the same row is the sentinel: the rename was delivered once.
        try await write(store, "UPDATE list SET name = 'Flat' WHERE id = 1")
        await waitUntil("the sentinel arrives") { item.listName == "Flat" }
        #expect(item.runs.listName == 3)
        #expect(item.title == "Milk")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func movingTheObjectToAnotherRowFollowsTheNewRow() async throws {
        let store = try makeStore()
        let item = TodoItemViewModel(store: store, id: 1)
        try item.start()
        try await write(store, "UPDATE item SET list_id = 2 WHERE id = 1")
        await waitUntil("the item follows its new list") { item.listName == "Work" }
        try await write(store, "UPDATE list SET name = 'Old home' WHERE id = 1")
        try await write(store, "UPDATE list SET name = 'Office' WHERE id = 2")
        await waitUntil("the new list's rename arrives") { item.listName == "Office" }
        #expect(item.runs.listName == 3)
        try await write(store, "UPDATE item SET list_id = NULL WHERE id = 1")
        await waitUntil("the item leaves its list") { item.listName == nil }
        #expect(item.runs.relatedDeletions.isEmpty)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func deletingTheRelatedRowWithSetNullGivesNilAndIsReported() async throws {
        let store = try makeStore(onDelete: "SET NULL")
        let item = TodoItemViewModel(store: store, id: 1)
        try item.start()
        try await write(store, "DELETE FROM list WHERE id = 1")
        // The report and the item's own update (its key set to NULL) come from two observations,
        // in either order (`relatedObjectWasDeleted`): a busy main actor can run a check between.
        await waitUntil("the deletion is reported and the item updated") {
            !item.runs.relatedDeletions.isEmpty && item.object?.listID == nil
        }
        #expect(item.listName == nil)
        #expect(item.runs.relatedDeletions == [ObjectID(table: "list", rowID: 1)])
        #expect(item.runs.listName == 2)
        #expect(!item.isDeleted && item.isObserving)
        // Still followed: moved to a list again, it shows that list.
        try await write(store, "UPDATE item SET list_id = 2 WHERE id = 1")
        await waitUntil("the item follows its new list") { item.listName == "Work" }
        #expect(item.runs.relatedDeletions.count == 1)
    }

    /// Another connection with foreign keys off (the `sqlite3` tool's default) deletes the
    /// item's list and leaves the item with its key: the binding goes to `nil`, then follows
    /// whatever row holds that key (given it, inserted again, renamed) by that connection or the store.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aRowThatTakesTheKeyOfADeletedRowIsFollowed() async throws {
        let store = try makeStore()
        let other = try connectionWithoutForeignKeys()
        let item = TodoItemViewModel(store: store, id: 1)
        try item.start()
        try await other.write { db in try db.execute(sql: "DELETE FROM list WHERE id = 1") }
        await waitUntil("the deletion is reported") { !item.runs.relatedDeletions.isEmpty }
        #expect(item.listName == nil && item.object?.listID == 1)
        try await other.write { db in try db.execute(sql: "UPDATE list SET id = 1 WHERE id = 2") }
        await waitUntil("the row given the key is followed") { item.listName == "Work" }
        try await other.write { db in try db.execute(sql: "DELETE FROM list WHERE id = 1") }
        await waitUntil("the second deletion is reported") { item.runs.relatedDeletions.count == 2 }
        try await other.write { db in try db.execute(sql: "INSERT INTO list(id, name) VALUES (1, 'Home again')") }
        await waitUntil("the row inserted with the key is followed") { item.listName == "Home again" }
        try await other.write { db in try db.execute(sql: "UPDATE list SET name = 'House' WHERE id = 1") }
        await waitUntil("its rename by the other connection arrives") { item.listName == "House" }
        try await write(store, "UPDATE list SET name = 'Flat' WHERE id = 1")
        await waitUntil("its rename by the store arrives") { item.listName == "Flat" }
        #expect(item.runs.listName == 7)
        #expect(item.runs.relatedDeletions == [ObjectID(table: "list", rowID: 1), ObjectID(table: "list", rowID: 1)])
        try other.close()
    }

    /// Another connection with foreign keys off deletes the item's list; the store itself then
    /// inserts a row with that key (a precise insert, not an external change) and renames it:
    /// the binding follows it.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aRowInsertedByTheStoreWithTheKeyOfADeletedRowIsFollowed() async throws {
        let store = try makeStore()
        let other = try connectionWithoutForeignKeys()
        let item = TodoItemViewModel(store: store, id: 1)
        try item.start()
        try await other.write { db in try db.execute(sql: "DELETE FROM list WHERE id = 1") }
        await waitUntil("the deletion is reported") { !item.runs.relatedDeletions.isEmpty }
        try other.close()
        try await write(store, "INSERT INTO list(id, name) VALUES (1, 'Home again')")
        await waitUntil("the row inserted with the key is followed") { item.listName == "Home again" }
        try await write(store, "UPDATE list SET name = 'House' WHERE id = 1")
        await waitUntil("its rename arrives") { item.listName == "House" }
    }

    /// With a text key, another connection with foreign keys off moves the key from row to row:
    /// the binding leaves the row that no longer holds it and follows the one that took it.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aTextKeyIsFollowedFromRowToRow() async throws {
        let store = try directory.makeStore(schema: City.schema)
        try await store.write { db in
            try db.execute(
                script: """
                    INSERT INTO country(code, name) VALUES ('FR', 'France'), ('DE', 'Germany');
                    INSERT INTO city(id, name, country_code) VALUES (1, 'Lyon', 'FR');
                    """)
        }
        let other = try connectionWithoutForeignKeys()
        let city = CityViewModel(store: store, id: 1)
        try city.start()
        #expect(city.countryName == "France")
        try await other.write { db in try db.execute(sql: "UPDATE country SET code = 'XX' WHERE code = 'FR'") }
        await waitUntil("the row that gave up the key is left") { city.countryName == nil }
        try await other.write { db in try db.execute(sql: "UPDATE country SET code = 'FR' WHERE code = 'DE'") }
        await waitUntil("the row that took the key is followed") { city.countryName == "Germany" }
        try await write(store, "UPDATE country SET name = 'Deutschland' WHERE code = 'FR'")
        await waitUntil("its rename arrives") { city.countryName == "Deutschland" }
        try other.close()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func deletingTheRelatedRowWithCascadeReportsTheObjectsDeletion() async throws {
        let store = try makeStore(onDelete: "CASCADE")
        let item = TodoItemViewModel(store: store, id: 1)
        let other = TodoItemViewModel(store: store, id: 2)
        try item.start()
        try other.start()
        try await write(store, "DELETE FROM list WHERE id = 1")
        await waitUntil("the deletion arrives") { item.isDeleted }
        try await write(store, "UPDATE list SET name = 'Office' WHERE id = 2")
        await waitUntil("the sentinel arrives") { other.listName == "Office" }
        #expect(item.runs.deletions == 1)
        #expect(item.runs.relatedDeletions.isEmpty)
        #expect(!item.isObserving)
        #expect(item.listName == "Home")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func writesThatLeaveTheRelatedValueAloneDoNotRunTheBinding() async throws {
        let store = try makeStore()
        let item = TodoItemViewModel(store: store, id: 1)
        try item.start()
        try await write(store, "UPDATE list SET name = 'Office' WHERE id = 2")
        try await write(store, "UPDATE item SET title = 'Stamps' WHERE id = 2")
        try await write(store, "INSERT INTO list(id, name) VALUES (3, 'Garden'); INSERT INTO item(title, list_id) VALUES ('Seeds', 3)")
        try await write(store, "UPDATE list SET name = 'Home' WHERE id = 1")  // same value: no run either
        try await write(store, "UPDATE item SET title = 'Oat milk' WHERE id = 1")  // the object, not its list
        await waitUntil("the object's change arrives") { item.title == "Oat milk" }
        try await write(store, "UPDATE list SET name = 'House' WHERE id = 1")
        await waitUntil("the sentinel arrives") { item.listName == "House" }
        #expect(item.runs.listName == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func stopEndsTheRelatedObservationAndStartReadsAfresh() async throws {
        let store = try makeStore()
        let item = TodoItemViewModel(store: store, id: 1)
        let sentinel = TodoItemViewModel(store: store, id: 1)
        try item.start()
        try sentinel.start()
        item.stop()
        try await write(store, "UPDATE list SET name = 'House' WHERE id = 1")
        await waitUntil("the sentinel sees the rename") { sentinel.listName == "House" }
        #expect(item.listName == "Home")
        try item.start()
        #expect(item.listName == "House" && item.runs.listName == 2)
    }
}
