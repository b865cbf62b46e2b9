/// A to-many relationship of model `Parent` to model `Child`: the inverse of the child's
/// ``ToOne``, the children whose foreign key holds the parent's key. Declare it as a static
/// property of the parent:
///
/// ```swift
/// extension TodoList {
///     static let items = ToMany("items", inverse: Item.list)
/// }
/// ```
///
/// It filters parents by their children (`TodoList.items.any { $0.done == false }`,
/// `TodoList.items.count > 3`) and loads them in one query for all parents
/// (`db.fetch(_:including:)`).
public struct ToMany<Parent: StoreModel, Child: StoreModel>: Sendable, Hashable {
    /// The relationship's name.
    public let name: String
    /// The children's relationship to the parent that this one inverts.
    public let inverse: ToOne<Child, Parent>

    /// The relationship named `name` to the children that `inverse` points at the parent:
    /// `ToMany("items", inverse: Item.list)`.
    public init(_ name: String, inverse: ToOne<Child, Parent>) {
        self.name = name
        self.inverse = inverse
    }

    /// The foreign key the relationship follows (the child's column, the parent's key).
    public var link: ToOneLink { inverse.link }

    /// The parent's children, as rows correlated to the parent's row in a subquery.
    var childRows: RelatedRows {
        RelatedRows(table: link.childTable, correlation: link.childCorrelation, childLink: link)
    }

    /// Whether the parent has at least one child: `EXISTS (SELECT 1 FROM child WHERE …)`.
    public func any() -> ModelPredicate<Parent> {
        ModelPredicate(childRows.exists(where: nil))
    }

    /// Whether no child points at the parent.
    public var isEmpty: ModelPredicate<Parent> { !any() }

    /// How many children the parent has, to compare with a number: `TodoList.items.count > 3`.
    public var count: RelatedCount<Parent> { RelatedCount(childRows.count(where: nil), relationship: name, from: link) }
}

extension ToMany where Child: TypedStoreModel {
    /// Whether at least one child meets `condition`, built from the child's typed columns:
    /// `TodoList.items.any { $0.done == false }`.
    public func any(_ condition: (Child.Columns) -> ModelPredicate<Child>) -> ModelPredicate<Parent> {
        ModelPredicate(childRows.exists(where: condition(Child.columns).expression))
    }

    /// How many children meet `condition`: `TodoList.items.count { $0.done == false } >= 2`.
    public func count(_ condition: (Child.Columns) -> ModelPredicate<Child>) -> RelatedCount<Parent> {
        RelatedCount(childRows.count(where: condition(Child.columns).expression), relationship: name, from: link)
    }
}
