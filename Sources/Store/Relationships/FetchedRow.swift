/// A model read by a request with the related objects the request includes
/// (``StoreRequest/including(_:)``): reach them by the relationship, as a property
/// (`row.list`, `row.tags`), by subscript (`row[Item.list]`), or decode the whole row into
/// a type of yours with ``decode(_:)``. The model's own properties read through too (`row.title`).
///
/// A relationship the request does not include reads as `nil` or empty.
@dynamicMemberLookup
public struct FetchedRow<M: StoreModel>: Sendable {
    /// The model itself.
    public let model: M
    /// The included objects by relationship name: a parent (`nil` when none) or a collection.
    let related: [String: (any Sendable)?]

    /// `model` with `related`.
    package init(model: M, related: [String: (any Sendable)?]) {
        self.model = model
        self.related = related
    }

    /// A property of the model: `row.title`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<M, Value>) -> Value { model[keyPath: keyPath] }

    /// The parent through a to-one relationship of the model, by its name: `row.list`.
    public subscript<Parent>(dynamicMember keyPath: KeyPath<M.Type, ToOne<M, Parent>>) -> Parent? {
        self[M.self[keyPath: keyPath]]
    }

    /// The children through a to-many relationship of the model, by its name: `row.items`.
    public subscript<Child>(dynamicMember keyPath: KeyPath<M.Type, ToMany<M, Child>>) -> [Child] {
        self[M.self[keyPath: keyPath]]
    }

    /// The targets through a many-to-many relationship of the model, by its name: `row.tags`.
    public subscript<Target>(dynamicMember keyPath: KeyPath<M.Type, ManyToMany<M, Target>>) -> [Target] {
        self[M.self[keyPath: keyPath]]
    }

    /// The parent through `relationship`: `row[Item.list]`.
    public subscript<Parent>(_ relationship: ToOne<M, Parent>) -> Parent? {
        related[relationship.link.name].flatMap { $0 as? Parent }
    }

    /// The children through `relationship`: `row[TodoList.items]`.
    public subscript<Child>(_ relationship: ToMany<M, Child>) -> [Child] {
        related[relationship.name].flatMap { $0 as? [Child] } ?? []
    }

    /// The targets through `relationship`: `row[Item.tags]`.
    public subscript<Target>(_ relationship: ManyToMany<M, Target>) -> [Target] {
        related[relationship.name].flatMap { $0 as? [Target] } ?? []
    }

    /// The count the request includes under `name` (``StoreRequest/including(_:as:)-(RelatedCount<M>,_)``): 0
    /// when it includes none by that name.
    public func count(named name: String) -> Int {
        related[name].flatMap { $0 as? Int } ?? 0
    }

    /// The related value the request includes under `name` (``StoreRequest/including(_:as:)-(RelatedValue<M>,_)``
    /// with a ``RelatedValue``), as SQLite computed it: `.null` for a sum, least or greatest
    /// value over no rows (or over NULLs only), and when the request includes none by that name.
    public func value(named name: String) -> DatabaseValue {
        related[name].flatMap { $0 as? DatabaseValue } ?? .null
    }

    /// The row as a `Decodable` type of yours: each property named like an included
    /// relationship receives its objects (an optional for a to-one relationship, an array
    /// otherwise, an `Int` for an included count), and every other property receives the model.
    ///
    /// Throws `DecodingError` when a property's type does not fit what it receives.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: FetchedRowDecoder(row: self))
    }
}
