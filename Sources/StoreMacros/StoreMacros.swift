@_exported import SQLiteStoreCore

/// Makes a struct a `StoreModel` (and `TypedStoreModel`) whose rows are read and bound by
/// column index, with no `Codable` container on the hot path.
///
/// ```swift
/// @StoreModel
/// struct Item {
///     var id: Int64?                          // the primary key: Int64? (rowid), Int64, UUID or String
///     var title: String
///     @StoreColumn("is_done") var done: Bool  // a column named otherwise
///     @StoreIgnored var isSelected = false    // not stored
/// }
///
/// let open = try db.fetch(StoreRequest<Item>().filter { $0.done == false }.order { $0.title.ascending })
/// ```
///
/// Generates, in an extension: `tableName` (the type's name with a lowercase first letter,
/// unless `table` names it or the struct declares its own), `primaryKeyColumn`,
/// `storeColumns`, `init(row:)`, `encode(to:)`, and `Columns`/`columns`, one `TypedColumn`
/// per stored property, for predicates, orderings and section keys that the compiler checks.
/// When the struct declares static relationships (`static let list = ToOne<…>(…)`, `ToMany`,
/// `ManyToMany`) in its body, it also generates `storeRelationships`, which lists them for
/// `db.check(_:)`; relationships declared in extensions must be listed by hand.
/// The primary key is the property named `id`, or the one marked `@PrimaryKey`, for which
/// an `id` property is generated.
/// It also generates `Draft` (unless the struct declares its own): the model's columns with
/// the key optional, for `db.insert(_:)`, which returns the stored model with its key, so the
/// key can be `Int64` rather than `Int64?`: `let item = try db.insert(Item.Draft(title: "Milk"))`.
@attached(
    extension, conformances: StoreModel, TypedStoreModel, Decodable, Encodable, Sendable,
    names: named(tableName), named(primaryKeyColumn), named(storeColumns), named(init(row:)),
    named(encode(to:)), named(Columns), named(columns), named(id), named(storeRelationships), named(Draft))
public macro StoreModel(table: String? = nil) = #externalMacro(module: "SQLiteStoreMacrosPlugin", type: "StoreModelMacro")

/// Marks the primary key of a `@StoreModel` whose key property is not named `id`.
@attached(peer)
public macro PrimaryKey() = #externalMacro(module: "SQLiteStoreMacrosPlugin", type: "MarkerMacro")

/// Stores a property of a `@StoreModel` in the column `name` instead of the property's name.
@attached(peer)
public macro StoreColumn(_ name: String) = #externalMacro(module: "SQLiteStoreMacrosPlugin", type: "MarkerMacro")

/// Leaves a property of a `@StoreModel` out of its table; it needs a default value.
@attached(peer)
public macro StoreIgnored() = #externalMacro(module: "SQLiteStoreMacrosPlugin", type: "MarkerMacro")
