/// A model's values before it is stored, with its key optional: what `Database.insert(_:)`
/// takes to return the stored model, so that the model an app reads never needs an optional
/// key for the sake of inserting.
///
/// `@StoreModel` generates one as `Model.Draft`, with a memberwise initializer whose
/// parameters default to the model's declared defaults and to `nil` for optional values:
///
/// ```swift
/// @StoreModel
/// struct Reminder {
///     var id: Int64  // not optional: the draft's key is
///     var text: String
///     var pinned: Bool = false
/// }
///
/// let reminder = try db.insert(Reminder.Draft(text: "Buy milk"))  // reminder.id: the rowid SQLite chose
/// ```
public protocol StoreDraft: Sendable {
    /// The model the draft becomes once stored; it must declare `storeColumns`.
    associatedtype Model: StoreModel

    /// The key the row gets; `nil` for SQLite to assign a rowid key, or for the library to
    /// make a new UUID key (a `String` key has no default: `insert` refuses a draft without one).
    var id: Model.ID.Value? { get }

    /// Binds the draft's values by column index, in the order of `Model.storeColumns`, the
    /// key included (NULL when `id` is `nil`).
    func encode(to bindings: StoreBindings) throws
}
