import Foundation
import SQLiteStore
import Testing
import TodoKit

/// The bundled migrations build the schema the models expect, on a new file and on one of the
/// app's first version.
@Suite("Migrations")
struct MigrationTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    @Test("A new database gets every migration, and the models match the schema they build")
    func newDatabase() throws {
        let store = try TodoDatabase.open(at: folder.path("todo.sqlite"))
        let status = try TodoMigrations.migrator().status(store)
        #expect(status.currentVersion == 3)
        #expect(status.entries(.pending).isEmpty)
        try store.read { db in
            try db.check(TodoList.self)  // throws one error listing every difference
            try db.check(TodoItem.self)
            #expect(try db.deleteRule(of: TodoItem.list) == .cascade)
        }
        let names = try store.read { db in try db.schema().map(\.name) }
        #expect(Set(names).isSuperset(of: ["lists", "items", "items_by_list"]))
    }

    @Test("A database of the app's first version (migrations 1 and 2) upgrades to item notes and keeps its rows")
    func upgradeFromTheFirstVersion() throws {
        let path = folder.path("first-version.sqlite")
        let (home, plants) = (UUID(), UUID())
        let firstVersion = try Store(path: path)
        try TodoMigrations.migrator().migrate(firstVersion, to: 2)
        try firstVersion.write { db in
            try db.execute(sql: "INSERT INTO lists(id, name) VALUES (?, 'Home')", arguments: [home])
            try db.execute(
                sql: "INSERT INTO items(id, list_id, title, done) VALUES (?, ?, 'Water plants', 1)", arguments: [plants, home])
        }
        let oldColumns = try firstVersion.read { db in
            try db.fetchRows(sql: "SELECT name FROM pragma_table_info('items')").compactMap { $0["name"].flatMap(String.fromDatabaseValue) }
        }
        #expect(oldColumns == ["id", "list_id", "title", "done"])
        try firstVersion.close()

        let store = try TodoDatabase.open(at: path)
        #expect(try TodoMigrations.migrator().status(store).currentVersion == 3)
        let items = try store.read { db in try db.fetch(StoreRequest<TodoItem>()) }
        #expect(items.map(\.id) == [plants])
        #expect(items.map(\.listID) == [home])
        #expect(items.map(\.title) == ["Water plants"])
        #expect(items.map(\.done) == [true])
        #expect(items.map(\.notes) == [""])
        #expect(try store.read { db in try db.fetch(StoreRequest<TodoList>()) }.map(\.name) == ["Home"])
    }

    @Test("Every migration can be undone, and applying them again builds the same schema")
    func undoAndRedo() throws {
        let store = try Store(path: folder.path("round-trip.sqlite"))
        let migrator = try TodoMigrations.migrator()
        try migrator.migrate(store)
        let schema = try store.read { db in try db.schema() }
        #expect(!schema.isEmpty)
        try migrator.rollback(store, to: 0)
        #expect(try store.read { db in try db.schema() }.isEmpty)
        try migrator.migrate(store)
        #expect(try store.read { db in try db.schema() } == schema)
    }
}
