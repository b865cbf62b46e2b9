/// A value type stored as one row of a table.
///
/// Declare models with the `@StoreModel` macro (product `SQLiteStoreMacros`), which
/// generates everything below, or conform by hand. A plain `Codable` struct conforms with
/// two lines and is read and written through `Codable`, matching columns by name:
///
/// ```swift
/// struct Item: StoreModel {
///     static let tableName = "item"
///     var id: Int64?
///     var title: String
///     var done: Bool
/// }
/// ```
///
/// For speed without the macro, also implement the by-index requirements, which read and
/// bind columns straight through the C API with no `Codable` container:
///
/// ```swift
/// extension Item {
///     static let storeColumns: [ModelColumn]? = [
///         ModelColumn("id", affinity: .integer, isNullable: true, isPrimaryKey: true),
///         ModelColumn("title", affinity: .text),
///         ModelColumn("done", affinity: .integer),
///     ]
///     init(row: StoreRow) throws {
///         // Every column read before any property is assigned, as the macro does: assigning
///         // each property as it is read makes the optimizer build the model in a temporary and copy it.
///         let id = try row.decode(Int64?.self, at: 0)
///         let title = try row.decode(String.self, at: 1)
///         let done = try row.decode(Bool.self, at: 2)
///         self.id = id
///         self.title = title
///         self.done = done
///     }
///     func encode(to bindings: StoreBindings) throws {
///         try bindings.bind(id, at: 0)
///         try bindings.bind(title, at: 1)
///         try bindings.bind(done, at: 2)
///     }
/// }
/// ```
///
/// The primary key is the `id` property: `Int64?` (an alias of the rowid, assigned by
/// SQLite on insert), `Int64`, `UUID` or `String` (see `StorePrimaryKey`). Tables are always
/// rowid tables: the library identifies rows by `ObjectID` (table and rowid).
/// Properties of types that are not `DatabaseValueConvertible` (arrays, nested structs, …)
/// are stored as JSON text.
public protocol StoreModel: Codable, Sendable {
    /// The type of the primary key, `id`.
    associatedtype ID: StorePrimaryKey

    /// The table that stores the model.
    static var tableName: String { get }
    /// The primary key column; `"id"` unless you say otherwise.
    static var primaryKeyColumn: String { get }
    /// The columns the model reads and writes, in the order of `init(row:)` and
    /// `encode(to:)`; `nil` (the default) for a model read and written through `Codable`,
    /// by column name.
    static var storeColumns: [ModelColumn]? { get }
    /// The relationships the model declares, for the schema check (`db.check(_:)` reports
    /// one whose foreign key the schema lacks); empty unless you list them:
    /// `static var storeRelationships: [AnyRelationship] { [AnyRelationship(list)] }`.
    static var storeRelationships: [AnyRelationship] { get }

    /// The row's primary key; `nil` until the model is inserted when it is an `Int64?` rowid.
    var id: ID { get set }

    /// Reads the model from `row`, whose columns are `storeColumns`, in order.
    init(row: StoreRow) throws

    /// Binds the model's values by column index, in the order of `storeColumns`.
    func encode(to bindings: StoreBindings) throws
}

extension StoreModel {
    /// `"id"`.
    public static var primaryKeyColumn: String { "id" }

    /// `nil`: the model is read and written through `Codable`.
    public static var storeColumns: [ModelColumn]? { nil }

    /// None.
    public static var storeRelationships: [AnyRelationship] { [] }

    /// Decodes the model through `Codable`, matching columns by name.
    public init(row: StoreRow) throws {
        self = try RowDecoder.decode(Self.self, from: row.statement)
    }

    /// Unavailable for `Codable` models, which the library encodes by column name; the
    /// library never calls it for a model without `storeColumns`.
    public func encode(to bindings: StoreBindings) throws {
        throw StoreError.misuse("\(Self.self) declares no storeColumns: it is written through Codable, by column name")
    }

    /// The model's identity across the library, once it has an id, when the key is the
    /// rowid; for other keys ask the database (``Database/objectID(of:id:)``).
    public var objectID: ObjectID? {
        guard ID.isRowIDAlias, case .integer(let rowID) = id.databaseValue else { return nil }
        return ObjectID(table: Self.tableName, rowID: rowID)
    }

    /// The columns `SELECT` reads for the model: its `storeColumns`, quoted, or `*`.
    package static var selection: String {
        storeColumns.map { $0.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ") } ?? "*"
    }

    /// The model's columns qualified by `table`, for a query that joins other tables:
    /// `"tag"."id", "tag"."name"`, or `"tag".*`.
    package static func selection(qualifiedBy table: String) -> String {
        let prefix = SQLIdentifier.quote(table) + "."
        return storeColumns.map { $0.map { prefix + SQLIdentifier.quote($0.name) }.joined(separator: ", ") } ?? prefix + "*"
    }
}
