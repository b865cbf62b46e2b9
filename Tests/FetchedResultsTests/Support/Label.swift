import SQLiteStoreCore

/// A label on any number of items, through `item_label`: the many-to-many target of the
/// included-objects suites.
struct Label: TypedStoreModel, Equatable {
    static let tableName = "label"
    var id: Int64?
    var name: String

    /// The typed columns, for conditions on an item's labels: `TodoItem.labels.count { $0.name == "a" }`.
    struct Columns: Sendable {
        let name = TypedColumn<Label, String>("name")
    }
    static let columns = Columns()
}

extension TodoItem {
    /// The item's labels: `StoreRequest<TodoItem>().including(all: TodoItem.labels)`.
    static let labels = ManyToMany<TodoItem, Label>("labels", through: "item_label", sourceKey: "item_id", targetKey: "label_id")
}

/// The schema of the included-objects suites: `TodoItem.schema`, with labels and a join
/// table that is a rowid table (its changes are followed row by row) with a unique pair.
enum LabelSchema {
    static let script =
        TodoItem.schema + """
            CREATE TABLE label(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE item_label(
                id INTEGER PRIMARY KEY,
                item_id INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                label_id INTEGER NOT NULL REFERENCES label(id) ON DELETE CASCADE,
                UNIQUE(item_id, label_id)
            );
            CREATE INDEX item_label_label ON item_label(label_id);
            """

    /// A trigger: a list renamed `B` raises its items' scores (moving them into or out of a
    /// conditional count) and becomes the owner of those that have none, writes the change
    /// capture must report as the rename's own.
    static let renameTrigger = """
        CREATE TRIGGER list_named_b_takes_its_items AFTER UPDATE OF name ON list WHEN NEW.name IS 'B' BEGIN
            UPDATE item SET score = coalesce(score, 0) + 1 WHERE list_id = NEW.id;
            UPDATE item SET owner_id = NEW.id WHERE list_id = NEW.id AND owner_id IS NULL;
        END;
        """
}

/// A database of `LabelSchema` (and `extra` schema) holding labels 1 to 3 (`a`, `b`, `c`), and
/// a second connection to its file, which commits as another process would.
struct LabelDatabase {
    let directory: TemporaryDirectory
    let store: Store
    let other: Store

    init(adding extra: String = "") throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: LabelSchema.script + extra + "INSERT INTO label(id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c');")
        other = try Store(path: directory.path("test.sqlite"))
    }
}
