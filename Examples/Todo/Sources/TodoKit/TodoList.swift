import Foundation
import SQLiteStore
import SQLiteStoreMacros

/// A to-do list: a row of the `lists` table, synced between devices.
@StoreModel(table: "lists")
public struct TodoList: Identifiable, Equatable, Sendable {
    /// The list's key, a UUID that any device makes offline (`TodoList.Draft` leaves it `nil` for
    /// the store to make).
    public var id: UUID
    /// The list's name, which heads its section of the item list.
    public var name: String

    /// The list's items: the inverse of `TodoItem.list`.
    public static let items = ToMany("items", inverse: TodoItem.list)
}
