import SQLiteStore
import SQLiteStoreMacros

/// A row of the example schema's `item` table, as the demo reads it.
@StoreModel(table: "item")
struct DemoItem: Equatable {
    var id: Int64?
    @StoreColumn("list_id") var listID: Int64
    var title: String
    var category: String
    var position: Int
    @StoreColumn("due_date") var dueDate: String?
    var done: Bool

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
