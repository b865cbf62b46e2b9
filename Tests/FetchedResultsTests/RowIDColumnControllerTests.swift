import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// A table with a user column named `rowid`: the controller identifies rows by the real rowid
/// and can sort and section on that column.
@MainActor @Suite(.timeLimit(.minutes(10))) struct RowIDColumnControllerTests {
    struct Shadow: StoreModel, Equatable {
        static let tableName = "shadow"
        var id: Int64?
        var rowid: String
    }

    @Test func controllerOverATableWithAColumnNamedRowidShowsAndSectionsItsRows() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: """
                CREATE TABLE shadow(id INTEGER PRIMARY KEY, rowid TEXT);
                INSERT INTO shadow(id, rowid) VALUES (1, 'b'), (2, 'a'), (3, 'b');
                """)
        let request = StoreRequest<Shadow>().order(Column("rowid").ascending).sectioned(by: Column("rowid"))
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        #expect(controller.sections == [FetchedSection(name: "a", numberOfObjects: 1), FetchedSection(name: "b", numberOfObjects: 2)])
        #expect(try controller.fetchedObjects.map(\.id) == [2, 1, 3])
        try await store.write { db in try db.execute(sql: "UPDATE shadow SET rowid = 'c' WHERE id = 1") }
        await controller.waitForChanges()
        #expect(try controller.fetchedObjects.map(\.id) == [2, 3, 1])
    }
}
