import SQLiteStoreCore

/// The parent model of the relationship suites: a list with a nullable name (BINARY, ties
/// between lists share a section), a nullable label (NOCASE, declared on the parent), and
/// the person who owns it where the schema has people (`Person.schema`; `nil` elsewhere).
struct TodoList: TypedStoreModel, Equatable {
    static let tableName = "list"
    var id: Int64?
    var name: String?
    var label: String?
    var personID: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name, label
        case personID = "person_id"
    }

    struct Columns: Sendable {
        let name = TypedColumn<TodoList, String?>("name")
        let label = TypedColumn<TodoList, String?>("label")
    }
    static let columns = Columns()

    /// The items of the list: `TodoList.items.any()`, `TodoList.items.count`.
    static let items = ToMany<TodoList, TodoItem>("items", inverse: TodoItem.list)
    /// The items the list owns (their owner is set NULL when the list goes).
    static let owned = ToMany<TodoList, TodoItem>("owned", inverse: TodoItem.owner)
}

/// The child model: an item belongs to a list (deleted with it) and may have an owner list
/// (forgotten when that list is deleted).
struct TodoItem: TypedStoreModel, Equatable {
    static let tableName = "item"
    var id: Int64?
    var title: String
    var listID: Int64?
    var ownerID: Int64?
    var score: Int?

    enum CodingKeys: String, CodingKey {
        case id, title, score
        case listID = "list_id"
        case ownerID = "owner_id"
    }

    /// The typed columns, for conditions on the items of a list: `TodoList.items.count { $0.score >= 2 }`.
    struct Columns: Sendable {
        let title = TypedColumn<TodoItem, String>("title")
        let score = TypedColumn<TodoItem, Int?>("score")
    }
    static let columns = Columns()

    /// The list the item belongs to: `TodoItem.list.name`.
    static let list = ToOne<TodoItem, TodoList>("list", foreignKey: "list_id")
    /// The list that owns the item, if any: `TodoItem.owner.label`.
    static let owner = ToOne<TodoItem, TodoList>("owner", foreignKey: "owner_id")

    static let schema = """
        CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT, label TEXT COLLATE NOCASE);
        CREATE TABLE item(
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            list_id INTEGER REFERENCES list(id) ON DELETE CASCADE,
            owner_id INTEGER REFERENCES list(id) ON DELETE SET NULL,
            score INTEGER
        );
        CREATE INDEX item_list ON item(list_id);
        CREATE INDEX item_owner ON item(owner_id);
        """

    /// The object ID of the item with rowid `rowID`.
    static func id(_ rowID: Int64) -> ObjectID { ObjectID(table: tableName, rowID: rowID) }
}
