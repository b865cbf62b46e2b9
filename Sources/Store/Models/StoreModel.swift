/// A value type stored as one row of a table whose integer primary key is the rowid.
///
/// ```swift
/// struct Item: StoreModel {
///     static let tableName = "item"
///     var id: Int64?
///     var title: String
///     var done: Bool
/// }
/// ```
/// Properties map to columns of the same name. Properties of types that are not
/// `DatabaseValueConvertible` (arrays, nested structs, …) are stored as JSON text.
public protocol StoreModel: Codable, Sendable {
    /// The table that stores the model.
    static var tableName: String { get }
    /// The primary key column, an alias of the rowid; `"id"` unless you say otherwise.
    static var primaryKeyColumn: String { get }
    /// The row's primary key; `nil` until the model is inserted.
    var id: Int64? { get set }
}

extension StoreModel {
    /// `"id"`.
    public static var primaryKeyColumn: String { "id" }

    /// The model's identity across the library, once it has an id.
    public var objectID: ObjectID? {
        id.map { ObjectID(table: Self.tableName, rowID: $0) }
    }
}
