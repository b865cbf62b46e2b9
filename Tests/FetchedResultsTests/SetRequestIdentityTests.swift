import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Issue 13, item 3: identity is (table, rowid). Switching a controller to another table is
/// a reload, and its objects come from the new table, never from the cache of the old one.
@MainActor @Suite(.timeLimit(.minutes(10))) struct SetRequestIdentityTests {
    @Test(arguments: [nil, 2] as [Int?])
    func anotherTableIsAReload(batchSize: Int?) async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: Note.schema + """
                CREATE TABLE other_note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, grp TEXT, score INTEGER);
                INSERT INTO note(id, title) VALUES (1, 'n1'), (2, 'n2'), (3, 'n3');
                INSERT INTO other_note(id, title) VALUES (2, 'o2'), (3, 'o3'), (4, 'o4');
                """)
        var request = StoreRequest<Note>().order(Column("title").ascending)
        if let batchSize { request = request.batchSize(batchSize) }
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        #expect(try controller.object(at: IndexPath(row: 1, section: 0)).title == "n2")
        let checker = ReplayChecker(controller)
        var other = request
        other.tableName = "other_note"
        try controller.setRequest(other)
        try await checker.check(store, "switched to other_note")
        #expect(try controller.fetchedObjects.map(\.title) == ["o2", "o3", "o4"])
        #expect(controller.indexPath(for: Note.id(2)) == nil, "note's row 2 is not in other_note's results")
        #expect(controller.indexPath(for: ObjectID(table: "other_note", rowID: 2)) == IndexPath(row: 0, section: 0))
        try await store.write { db in try db.execute(sql: "UPDATE other_note SET title = 'o0' WHERE id = 4") }
        try await checker.check(store, "other_note changed")
        #expect(try controller.object(at: IndexPath(row: 0, section: 0)).title == "o0")
        try controller.setRequest(request)
        try await checker.check(store, "back to note")
        #expect(try controller.fetchedObjects.map(\.title) == ["n1", "n2", "n3"])
    }
}
