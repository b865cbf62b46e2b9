import SQLiteStoreCore

/// A row of the example schema's `item` table, as the demo reads it.
///
/// Conformed by hand, as `@StoreModel(table: "item")` would (with `@StoreColumn` for
/// `list_id` and `due_date`): the `store` binary does not build swift-syntax.
struct DemoItem: Equatable, TypedStoreModel {
    var id: Int64?
    var listID: Int64
    var title: String
    var category: String
    var position: Int
    var dueDate: String?
    var done: Bool

    static let tableName = "item"
    static let storeColumns: [ModelColumn]? = [
        ModelColumn("id", affinity: .integer, isNullable: true, isPrimaryKey: true),
        ModelColumn("list_id", affinity: .integer),
        ModelColumn("title", affinity: .text),
        ModelColumn("category", affinity: .text),
        ModelColumn("position", affinity: .integer),
        ModelColumn("due_date", affinity: .text, isNullable: true),
        ModelColumn("done", affinity: .integer),
    ]

    /// The typed columns of requests: `$0.listID == 1`.
    struct Columns: Sendable {
        let id = TypedColumn<DemoItem, Int64?>("id")
        let listID = TypedColumn<DemoItem, Int64>("list_id")
        let title = TypedColumn<DemoItem, String>("title")
        let category = TypedColumn<DemoItem, String>("category")
        let position = TypedColumn<DemoItem, Int>("position")
        let dueDate = TypedColumn<DemoItem, String?>("due_date")
        let done = TypedColumn<DemoItem, Bool>("done")
    }
    static let columns = Columns()

    init(row: StoreRow) throws {
        let id = try row.decode(Int64?.self, at: 0)
        let listID = try row.decode(Int64.self, at: 1)
        let title = try row.decode(String.self, at: 2)
        let category = try row.decode(String.self, at: 3)
        let position = try row.decode(Int.self, at: 4)
        let dueDate = try row.decode(String?.self, at: 5)
        let done = try row.decode(Bool.self, at: 6)
        // Every column read before any property is assigned, as the macro does (see `StoreModel`).
        self.id = id
        self.listID = listID
        self.title = title
        self.category = category
        self.position = position
        self.dueDate = dueDate
        self.done = done
    }

    func encode(to bindings: StoreBindings) throws {
        try bindings.bind(id, at: 0)
        try bindings.bind(listID, at: 1)
        try bindings.bind(title, at: 2)
        try bindings.bind(category, at: 3)
        try bindings.bind(position, at: 4)
        try bindings.bind(dueDate, at: 5)
        try bindings.bind(done, at: 6)
    }

    /// "done", "due YYYY-MM-DD" or "open".
    var status: String {
        done ? "done" : dueDate.map { "due \($0)" } ?? "open"
    }

    /// The items of list `listID`, sectioned by category, by position inside a category.
    static func sectionedByCategory(inList listID: Int64) -> StoreRequest<DemoItem> {
        StoreRequest<DemoItem>()
            .filter { $0.listID == listID }
            .order { [$0.category.ascending, $0.position.ascending] }
            .sectioned { $0.category }
    }
}
