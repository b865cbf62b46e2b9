import Foundation
import SQLiteStore

// The models the snippets of the libraries' documentation comments use, declared as those
// comments declare them (`.ci/doc-snippets` checks that every snippet appears in a test).

/// The schema of the snippets: lists of items, tags on items, notes.
enum SnippetSchema {
    static let sql = """
        CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE item(
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0,
            category TEXT NOT NULL DEFAULT '', position INTEGER NOT NULL DEFAULT 0, due REAL,
            list_id INTEGER REFERENCES list(id) ON DELETE CASCADE);
        CREATE TABLE tag(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE item_tag(
            item_id INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
            tag_id INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            PRIMARY KEY(item_id, tag_id));
        CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL);
        INSERT INTO list(name) VALUES ('Groceries'), ('Work');
        INSERT INTO item(title, category, position, list_id) VALUES
            ('Bread', 'bakery', 1, 1), ('Buy milk', 'dairy', 1, 1), ('Slides', 'office', 1, 2);
        INSERT INTO tag(name) VALUES ('urgent');
        INSERT INTO item_tag(item_id, tag_id) VALUES (2, 1);
        INSERT INTO note(title) VALUES ('First note');
        """
}

// `StoreModel`: a model read and written through `Codable`…
struct Item: StoreModel {
    static let tableName = "item"
    var id: Int64?
    var title: String
    var done: Bool
}

// …and the by-index requirements, for speed without the macro.
extension Item {
    static let storeColumns: [ModelColumn]? = [
        ModelColumn("id", affinity: .integer, isNullable: true, isPrimaryKey: true),
        ModelColumn("title", affinity: .text),
        ModelColumn("done", affinity: .integer),
    ]
    init(row: StoreRow) throws {
        // Every column read before any property is assigned, as the macro does: assigning
        // each property as it is read makes the optimizer build the model in a temporary and copy it.
        let id = try row.decode(Int64?.self, at: 0)
        let title = try row.decode(String.self, at: 1)
        let done = try row.decode(Bool.self, at: 2)
        self.id = id
        self.title = title
        self.done = done
    }
    func encode(to bindings: StoreBindings) throws {
        try bindings.bind(id, at: 0)
        try bindings.bind(title, at: 1)
        try bindings.bind(done, at: 2)
    }
}

// The typed columns `TypedColumn`'s snippet filters and orders with, as `@StoreModel` makes them.
extension Item: TypedStoreModel {
    struct Columns: Sendable {
        let id = TypedColumn<Item, Int64?>("id")
        let title = TypedColumn<Item, String>("title")
        let done = TypedColumn<Item, Bool>("done")
        let due = TypedColumn<Item, Double?>("due")
    }
    static let columns = Columns()
}

// `ToOne`
extension Item {
    static let list = ToOne<Item, TodoList>("list", foreignKey: "list_id")
}

// `ManyToMany`
extension Item {
    static let tags = ManyToMany<Item, Tag>("tags", through: "item_tag", sourceKey: "item_id", targetKey: "tag_id")
}

// `AnyRelationship`
extension Item {
    static var storeRelationships: [AnyRelationship] { [AnyRelationship(list), AnyRelationship(tags)] }
}

struct TodoList: StoreModel {
    static let tableName = "list"
    var id: Int64?
    var name: String
}

// `ToMany`
extension TodoList {
    static let items = ToMany("items", inverse: Item.list)
}

struct Tag: StoreModel {
    static let tableName = "tag"
    var id: Int64?
    var name: String
}

struct Note: StoreModel, Equatable {
    static let tableName = "note"
    var id: Int64?
    var title: String
}

/// The cell view model of `FetchedDataSource`'s snippet.
struct NoteCell: Equatable {
    static let loading = NoteCell(title: "…")
    let title: String

    init(title: String) { self.title = title }
    init(_ note: Note) { title = note.title }
}
