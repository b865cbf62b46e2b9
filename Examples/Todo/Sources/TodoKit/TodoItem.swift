import Foundation
import SQLiteStore
import SQLiteStoreMacros

/// A to-do item: a row of the `items` table, in one list, synced between devices.
@StoreModel(table: "items")
public struct TodoItem: Identifiable, Equatable, Sendable {
    /// The item's key, a UUID that any device makes offline.
    public var id: UUID
    /// The key of the list the item belongs to.
    @StoreColumn("list_id") public var listID: UUID
    /// What is to be done.
    public var title: String
    /// Whether it is done.
    public var done: Bool = false
    /// Free text about the item (migration 3: the app's second version).
    public var notes: String = ""

    /// The item's list: `items.list_id` refers to `lists.id`, `ON DELETE CASCADE`.
    public static let list = ToOne<TodoItem, TodoList>("list", foreignKey: "list_id")
}
