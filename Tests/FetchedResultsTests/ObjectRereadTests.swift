import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// A note read by column index, its columns in another order than the table's: its values
/// are decoded from the leading columns of the controller's re-read, not by name.
private struct IndexedNote: StoreModel, Equatable {
    static let tableName = "note"
    var id: Int64?
    var title: String
    var grp: String?
    var score: Int?

    static let storeColumns: [ModelColumn]? = [
        ModelColumn("score", affinity: .integer, isNullable: true),
        ModelColumn("title", affinity: .text),
        ModelColumn("id", affinity: .integer, isNullable: true, isPrimaryKey: true),
        ModelColumn("grp", affinity: .text, isNullable: true),
    ]

    init(id: Int64?, title: String, grp: String?, score: Int?) {
        (self.id, self.title, self.grp, self.score) = (id, title, grp, score)
    }

    init(row: StoreRow) throws {
        score = try row.decode(Int?.self, at: 0)
        title = try row.decode(String.self, at: 1)
        id = try row.decode(Int64?.self, at: 2)
        grp = try row.decode(String?.self, at: 3)
    }

    func encode(to bindings: StoreBindings) throws {
        try bindings.bind(score, at: 0)
        try bindings.bind(title, at: 1)
        try bindings.bind(id, at: 2)
        try bindings.bind(grp, at: 3)
    }
}

/// A controller that holds every object re-reads a changed row once, keys and object
/// together, whether the model decodes by name (`Codable`) or by column index.
@MainActor @Suite(.timeLimit(.minutes(10))) struct ObjectRereadTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: Note.schema + "INSERT INTO note(title, grp, score) VALUES ('a', 'x', 3), ('b', 'y', 1), ('c', 'x', 2);")
    }

    /// Applies `sql` and returns the objects in the controller's order, with how many rows it read for them.
    private func objectsAfter<M: StoreModel>(
        _ sql: String, in controller: FetchedResultsController<M>
    ) async throws -> (objects: [M], rowsRead: Int) {
        let before = controller.rowsRead
        var changes = controller.changes().makeAsyncIterator()
        try await store.write { db in try db.execute(script: sql) }
        _ = try #require(await changes.next())
        return (try controller.fetchedObjects, controller.rowsRead - before)
    }

    @Test("Codable model: the changed rows' objects come from the one re-read, decoded by column name")
    func codableModel() async throws {
        let controller = FetchedResultsController(
            store: store, request: StoreRequest<Note>().order(Column("grp").ascending, Column("score").ascending))
        try controller.performFetch()
        let (objects, rowsRead) = try await objectsAfter(
            "UPDATE note SET score = 0, title = 'c2' WHERE id = 3; UPDATE note SET grp = 'w' WHERE id = 2", in: controller)
        #expect(objects.map(\.title) == ["b", "c2", "a"])
        #expect(objects.map(\.score) == [1, 0, 3])
        #expect(objects.map(\.grp) == ["w", "x", "x"])
        #expect(rowsRead == 2, "each changed row read once, with its object")
    }

    @Test("By-index model whose columns are in another order than the table's: decoded from the leading columns")
    func byIndexModel() async throws {
        let controller = FetchedResultsController(
            store: store, request: StoreRequest<IndexedNote>().order(Column("score").descending))
        try controller.performFetch()
        let (objects, rowsRead) = try await objectsAfter(
            "UPDATE note SET score = 9, title = 'b2', grp = NULL WHERE id = 2; INSERT INTO note(title, grp, score) VALUES ('d', 'z', 2)",
            in: controller)
        #expect(
            objects == [
                IndexedNote(id: 2, title: "b2", grp: nil, score: 9), IndexedNote(id: 1, title: "a", grp: "x", score: 3),
                IndexedNote(id: 3, title: "c", grp: "x", score: 2), IndexedNote(id: 4, title: "d", grp: "z", score: 2),
            ])
        #expect(rowsRead == 2)
    }
}
