import SQLiteStore

/// A row of the example schema's `item` table, as the demo reads it.
struct DemoItem: StoreModel, Equatable {
    static let tableName = "item"
    var id: Int64?
    var listID: Int64
    var title: String
    var category: String
    var position: Int
    var dueDate: String?
    var done: Bool

    enum CodingKeys: String, CodingKey {
        case id, title, category, position, done
        case listID = "list_id"
        case dueDate = "due_date"
    }

    /// "done", "due YYYY-MM-DD" or "open".
    var status: String {
        done ? "done" : dueDate.map { "due \($0)" } ?? "open"
    }

    /// The items of list `listID`, sectioned by category, by position inside a category.
    static func sectionedByCategory(inList listID: Int64) -> StoreRequest<DemoItem> {
        StoreRequest<DemoItem>()
            .filter(Column("list_id") == listID)
            .order(Column("category").ascending, Column("position").ascending)
            .sectioned(by: Column("category"))
    }
}
