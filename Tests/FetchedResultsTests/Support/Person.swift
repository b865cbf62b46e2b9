import SQLiteStoreCore

/// A person who owns lists: the second hop of an item's path (item → list → person), with
/// a `NOCASE` name and an `RTRIM` nickname.
struct Person: TypedStoreModel, Equatable {
    static let tableName = "person"
    var id: Int64?
    var name: String?
    var nick: String?

    struct Columns: Sendable {
        let name = TypedColumn<Person, String?>("name")
        let nick = TypedColumn<Person, String?>("nick")
    }
    static let columns = Columns()

    /// The people, and the lists' link to them, added to `LabelSchema.script` (or `TodoItem.schema`).
    static let schema = """
        CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE, nick TEXT COLLATE RTRIM);
        ALTER TABLE list ADD COLUMN person_id INTEGER REFERENCES person(id) ON DELETE SET NULL;
        CREATE INDEX list_person ON list(person_id);
        """
}

extension TodoList {
    /// The person who owns the list: `TodoItem.list.then(TodoList.person).name`.
    static let person = ToOne<TodoList, Person>("person", foreignKey: "person_id")
}
