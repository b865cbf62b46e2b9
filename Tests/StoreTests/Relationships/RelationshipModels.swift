import SQLiteStoreCore
import SQLiteStoreMacros

/// A to-do list: the parent of chores.
@StoreModel(table: "list")
struct TodoList: Equatable {
    var id: Int64?
    var name: String

    static let chores = ToMany("chores", inverse: Chore.list)
    static var storeRelationships: [AnyRelationship] { [AnyRelationship(chores)] }
}

/// A chore: on one list (or none), with any number of tags.
@StoreModel
struct Chore: Equatable {
    var id: Int64?
    @StoreColumn("list_id") var listID: Int64?
    var title: String
    var done: Bool

    static let list = ToOne<Chore, TodoList>("list", foreignKey: "list_id")
    static let tags = ManyToMany<Chore, Tag>("tags", through: "chore_tag", sourceKey: "chore_id", targetKey: "tag_id")
    static var storeRelationships: [AnyRelationship] { [AnyRelationship(list), AnyRelationship(tags)] }
}

/// A tag, on many chores.
@StoreModel
struct Tag: Equatable {
    var id: Int64?
    var name: String
}

/// The relationship suites' schema; the join table has columns named like the tag's
/// (`id`, `name`) so that an unqualified query would be ambiguous.
enum RelationshipSchema {
    /// The schema with chores' `list_id` under delete rule `onDelete`.
    static func script(onDelete: String = "CASCADE") -> String {
        """
        CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE chore(
            id INTEGER PRIMARY KEY, list_id INTEGER REFERENCES list(id) ON DELETE \(onDelete),
            title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE tag(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE chore_tag(
            id INTEGER PRIMARY KEY, chore_id INTEGER NOT NULL REFERENCES chore(id) ON DELETE CASCADE,
            tag_id INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE, name TEXT);
        """
    }

    /// `lists` lists named "list 1"…; `perList` chores on each (every other one done), in
    /// list order; and the chores' tags: chore n has tags 1…(n % 3).
    static func populate(_ db: Database, lists: Int, perList: Int) throws {
        try db.execute(script: "INSERT INTO tag(id, name) VALUES (1, 'urgent'), (2, 'home'), (3, 'work');")
        for list in 1...max(lists, 1) where lists > 0 {
            var todoList = TodoList(name: "list \(list)")
            try db.insert(&todoList)
            for index in 0..<perList {
                var chore = Chore(listID: todoList.id, title: "chore \(list).\(index)", done: index % 2 == 1)
                try db.insert(&chore)
                for tag in 0..<Int(chore.id! % 3) {
                    try db.execute(
                        sql: "INSERT INTO chore_tag(chore_id, tag_id, name) VALUES (?, ?, 'x')", arguments: [chore.id, tag + 1])
                }
            }
        }
    }
}
