/// A relationship whose related objects a request reads with each of its rows: a to-one
/// parent, a to-many or many-to-many collection, or a count of related rows. Made by
/// ``StoreRequest/including(_:)``, `including(all:)` and `including(_:as:)`; read back from
/// each ``FetchedRow``.
public struct IncludedRelationship: Sendable {
    /// How the related rows are found, for the fetched-results controller, which follows
    /// their tables.
    package enum Kind: Sendable, Hashable {
        /// The row's foreign key finds its parent.
        case toOne(ToOneLink)
        /// The children's foreign key finds the row.
        case toMany(ToOneLink)
        /// The join table's pairs find the targets.
        case manyToMany(source: ToOneLink, target: ToOneLink)
        /// A query on these tables the controller cannot follow row by row (a count whose
        /// condition reads other tables, a many-to-many count): any change there changes every row.
        case tables([String])
    }

    /// The relationship's name, under which a ``FetchedRow`` holds the related objects and a
    /// `Decodable` type receives them.
    public let name: String
    package let kind: Kind
    /// The column of the request's table whose value finds the related rows.
    let keyColumn: String
    /// The related objects of the rows with `keys` (values of `keyColumn`), by key: a parent
    /// (absent when none), or a collection. One statement for all keys.
    let load: @Sendable (Database, [DatabaseValue]) throws -> [DatabaseValue: any Sendable]
    /// What a row with no related rows holds: `nil` for a to-one relationship, `[]` otherwise.
    let empty: (any Sendable)?
    /// The subquery computing the value of a count or an aggregate, correlated with the
    /// request's table; `nil` for related objects.
    package var computed: SQLExpression? = nil
    /// For a many-to-many collection, the join table's links (to the row, to the target) and
    /// the condition the targets meet, if any (`including(all:targets:)`).
    package var pairs: (source: ToOneLink, target: ToOneLink, filter: SQLExpression?)? = nil

    /// The tables whose changes can change the related objects.
    package var tables: [String] { Self.tables(of: kind) }

    /// The value `expression` computes for each row from the rows related to it through
    /// `link` (a count, a sum), read for a batch of rows in one statement and made by
    /// `convert`. It is followed row by row when `children` is `link` (the value reads the
    /// children's own columns only: ``RelatedCount``, ``RelatedValue``) or when `pairs` are a
    /// many-to-many relationship's links (a count of targets that reads their own columns
    /// only), else by the tables it reads.
    static func aggregate(
        named name: String, _ expression: SQLExpression, through link: ToOneLink, children: ToOneLink?,
        pairs: (source: ToOneLink, target: ToOneLink)? = nil, empty: any Sendable,
        convert: @escaping @Sendable (DatabaseValue) -> any Sendable
    ) -> Self {
        let kind =
            children.map { Kind.toMany($0) } ?? pairs.map { Kind.manyToMany(source: $0.source, target: $0.target) }
            ?? .tables(Array(expression.relatedTables))
        return IncludedRelationship(
            name: name, kind: kind, keyColumn: link.referencedKey,
            load: { db, keys in try db.relatedValues(expression, through: link, keys: keys, convert: convert) }, empty: empty,
            computed: expression)
    }

    /// The tables whose changes can change the related objects of a relationship of `kind`.
    package static func tables(of kind: Kind) -> [String] {
        switch kind {
        case .toOne(let link): [link.parentTable]
        case .toMany(let link): [link.childTable]
        case .manyToMany(let source, let target): [source.childTable, target.parentTable]
        case .tables(let tables): tables
        }
    }
}

extension StoreRequest {
    /// The request reading each row's parent through `relationship` with it, in one more
    /// statement per batch of rows: `StoreRequest<Item>().including(Item.list)`.
    public func including<Parent>(_ relationship: ToOne<M, Parent>) -> Self {
        let link = relationship.link
        return including(
            IncludedRelationship(
                name: link.name, kind: .toOne(link), keyColumn: link.foreignKey,
                load: { db, keys in try db.parents(through: link, keys: keys, as: Parent.self) }, empty: nil))
    }

    /// The request reading each row's children through `relationship` with it (in rowid
    /// order), in one more statement per batch of rows: `StoreRequest<TodoList>().including(all: TodoList.items)`.
    public func including<Child>(all relationship: ToMany<M, Child>) -> Self {
        including(
            IncludedRelationship(
                name: relationship.name, kind: .toMany(relationship.link), keyColumn: relationship.link.referencedKey,
                load: { db, keys in try db.children(through: relationship, parentKeys: keys, children: StoreRequest<Child>()) },
                empty: [Child]()))
    }

    /// The request reading each row's targets through `relationship` with it (in rowid
    /// order), in one more statement per batch of rows (the join table joined to the
    /// targets): `StoreRequest<Item>().including(all: Item.tags)`.
    public func including<Target>(all relationship: ManyToMany<M, Target>) -> Self {
        including(
            IncludedRelationship(
                name: relationship.name, kind: .manyToMany(source: relationship.source, target: relationship.target),
                keyColumn: relationship.source.referencedKey,
                load: { db, keys in try db.targets(through: relationship, sourceKeys: keys) },
                empty: [Target](), pairs: (relationship.source, relationship.target, nil)))
    }

    /// The request reading each row's targets through `relationship` with it, those that
    /// `targets` selects, in its order (as `Database.fetch(_:including:targets:)` reads them),
    /// in two more statements per batch of rows: `.including(all: Item.tags, targets:
    /// StoreRequest<Tag>().order(Column("name").ascending))`. Its limit and offset do not
    /// apply. Live results follow a condition on the targets' own columns pair by pair; one
    /// that reads other tables makes them read every row again on a change there, and diff.
    public func including<Target>(all relationship: ManyToMany<M, Target>, targets: StoreRequest<Target>) -> Self {
        var targets = targets
        (targets.limit, targets.offset) = (nil, nil)
        let (source, target) = (relationship.source, relationship.target)
        let filter = targets.predicate
        let readsTargetsOnly = filter.map { $0.relatedTables.isEmpty } ?? true
        let kind =
            readsTargetsOnly
            ? IncludedRelationship.Kind.manyToMany(source: source, target: target)
            : .tables([source.childTable, target.parentTable] + (filter?.relatedTables ?? []))
        return including(
            IncludedRelationship(
                name: relationship.name, kind: kind, keyColumn: source.referencedKey,
                load: { [targets] db, keys in try db.targets(through: relationship, sourceKeys: keys, targets: targets) },
                empty: [Target](), pairs: (source, target, filter)))
    }

    /// The request reading `count` with each row, under `name` (``FetchedRow/count(named:)``,
    /// or a property of that name when decoding), in one more statement per batch of rows:
    /// `StoreRequest<TodoList>().including(TodoList.items.count { $0.done == false }, as: "openItems")`.
    public func including(_ count: RelatedCount<M>, as name: String) -> Self {
        including(
            .aggregate(named: name, count.expression, through: count.link, children: count.children, pairs: count.pairs, empty: 0) {
                Int.fromDatabaseValue($0) ?? 0
            })
    }

    /// The request reading `value` with each row, under `name` (``FetchedRow/value(named:)``),
    /// in one more statement per batch of rows:
    /// `StoreRequest<TodoList>().including(TodoList.items.sum(\.score), as: "total")`.
    public func including(_ value: RelatedValue<M>, as name: String) -> Self {
        including(
            .aggregate(named: name, value.expression, through: value.link, children: value.children, empty: DatabaseValue.null) { $0 })
    }

    private func including(_ inclusion: IncludedRelationship) -> Self {
        var copy = self
        copy.inclusions.removeAll { $0.name == inclusion.name }
        copy.inclusions.append(inclusion)
        return copy
    }
}
