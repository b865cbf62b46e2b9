/// A relationship of any kind, reduced to the foreign keys it needs in the schema: what a
/// model lists in `storeRelationships` so that `db.check(_:)` finds a missing foreign key.
///
/// ```swift
/// extension Item {
///     static var storeRelationships: [AnyRelationship] { [AnyRelationship(list), AnyRelationship(tags)] }
/// }
/// ```
public struct AnyRelationship: Sendable, Hashable, CustomStringConvertible {
    /// The relationship's name.
    public let name: String
    /// The foreign keys the relationship follows; each must be declared in the schema.
    public let links: [ToOneLink]

    /// A to-one relationship: its foreign key.
    public init<Child, Parent>(_ relationship: ToOne<Child, Parent>) {
        name = relationship.link.name
        links = [relationship.link]
    }

    /// A to-many relationship: the foreign key of its inverse.
    public init<Parent, Child>(_ relationship: ToMany<Parent, Child>) {
        name = relationship.name
        links = [relationship.link]
    }

    /// A many-to-many relationship: both foreign keys of its join table.
    public init<Source, Target>(_ relationship: ManyToMany<Source, Target>) {
        name = relationship.name
        links = [relationship.source, relationship.target]
    }

    public var description: String { name }
}
