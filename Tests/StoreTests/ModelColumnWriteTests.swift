import Foundation
import SQLiteStoreCore
import Testing

/// Writes by column: some columns of one row, every row matching a typed predicate, and
/// upserts on a unique key, each publishing exactly the rows it changed.
@Suite("Model writes by column")
struct ModelColumnWriteTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Todo.schema + Document.schema)
    }

    private func insertTodos() throws -> [Todo] {
        try store.write { db in
            try (0..<4).map { index in
                var todo = Todo(title: "t\(index)", done: false, priority: index, tag: nil)
                try db.insert(&todo)
                return todo
            }
        }
    }

    @Test("update(_:columns:) writes only the named columns")
    func updateSomeColumns() throws {
        let todos = try insertTodos()
        var edited = todos[1]
        edited.title = "renamed"
        edited.done = true
        edited.priority = 99
        try store.write { db in
            // Another writer changed priority meanwhile: an update of title and done keeps it.
            try db.execute(sql: "UPDATE todo SET priority = 7 WHERE id = ?", arguments: [edited.id])
            try db.update(edited, columns: \.title, \.done)
        }
        let stored = try store.read { db in try db.fetchOne(Todo.self, id: edited.id ?? 0) }
        #expect(stored == Todo(id: edited.id, title: "renamed", done: true, priority: 7, tag: nil))
        let missing = #expect(throws: StoreError.self) {
            try store.write { db in try db.update(Todo(id: 42, title: "x", done: false), columns: \.title) }
        }
        #expect(missing?.code == .notFound)
    }

    @Test("updateAll and deleteAll act on the rows a typed predicate matches, and publish exactly those")
    func updateAndDeleteMatching() async throws {
        _ = try insertTodos()
        let recorder = try ChangeRecorder(store: store, tables: ["todo"])
        let updated = try await recorder.commit { db in
            let count = try db.updateAll(
                Todo.self, set: [Todo.columns.done.set(true), Todo.columns.tag.set("late")],
                where: Todo.columns.priority >= 2)
            #expect(count == 2)
        }
        #expect(updated.changes(in: "todo").updated == [3, 4])
        #expect(updated.changes(in: "todo").inserted.isEmpty && updated.changes(in: "todo").deleted.isEmpty)
        let deleted = try await recorder.commit { db in
            let count = try db.deleteAll(Todo.self, where: Todo.columns.tag == "late")
            #expect(count == 2)
        }
        #expect(deleted.changes(in: "todo").deleted == [3, 4])
        let remaining = try await store.read { db in try db.fetch(StoreRequest<Todo>()).map(\.title) }
        #expect(remaining == ["t0", "t1"])
    }

    @Test("upsert(_:onConflictOf:) inserts, or updates the row with the same unique key and takes its id")
    func upsertOnUniqueKey() throws {
        var first = Document(id: UUID(), name: "Draft", slug: "report")
        var second = Document(id: UUID(), name: "Final", slug: "report")
        var third = Document(id: UUID(), name: "Other", slug: "other")
        try store.write { db in
            try db.upsert(&first, onConflictOf: \.slug)
            try db.upsert(&second, onConflictOf: \.slug)
            try db.upsert(&third, onConflictOf: ["slug"])
        }
        #expect(second.id == first.id)  // the stored row's key, not the new value's
        let stored = try store.read { db in try db.fetch(StoreRequest<Document>()) }
        #expect(stored == [Document(id: first.id, name: "Final", slug: "report"), third])
    }

    @Test("A rowid model upserted on a unique column gets the rowid of the row it wrote")
    func upsertAssignsRowID() throws {
        try store.write { db in try db.execute(sql: "CREATE UNIQUE INDEX todo_title ON todo(title)") }
        var todo = Todo(title: "same", done: false)
        var again = Todo(title: "same", done: true)
        try store.write { db in
            try db.upsert(&todo, onConflictOf: \.title)
            try db.upsert(&again, onConflictOf: \.title)
        }
        #expect(todo.id == 1)
        #expect(again.id == 1)
        #expect(try store.read { db in try db.fetch(StoreRequest<Todo>()) } == [Todo(id: 1, title: "same", done: true)])
    }

    @Test("Writes by column need a model that binds by index")
    func codableModelsAreRefused() throws {
        try store.write { db in try db.execute(script: Item.schema) }
        let error = #expect(throws: StoreError.self) {
            try store.write { db in try db.update(Item(id: 1, title: "x"), columnNames: ["title"]) }
        }
        #expect(error?.code == .misuse)
    }
}
