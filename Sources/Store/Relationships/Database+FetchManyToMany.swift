extension Database {
    /// The sources that `request` selects, in its order, each with its targets through
    /// `relationship` (in the targets' rowid order): two queries, whatever the number of sources.
    ///
    /// ```swift
    /// let tagged = try db.fetch(StoreRequest<Item>(), including: Item.tags)
    /// for (item, tags) in tagged { print(item.title, tags.map(\.name)) }
    /// ```
    ///
    /// The second query joins the join table to the targets, for the sources' keys bound as
    /// one JSON array; its columns are qualified, so the join table may have columns of the
    /// same names.
    public func fetch<Source, Target>(
        _ request: StoreRequest<Source>, including relationship: ManyToMany<Source, Target>
    ) throws -> [(Source, [Target])] {
        let (source, target) = (relationship.source, relationship.target)
        let (sql, arguments) = try selectSQL(
            request,
            columns: Source.selection + ", " + SQLIdentifier.quote(source.referencedKey))
        let sources = try fetchKeyed(Source.self, sql: sql, arguments: arguments)
        let join = SQLIdentifier.quote(relationship.joinTable)
        let targetTable = SQLIdentifier.quote(target.parentTable)
        let sourceKey = "\(join).\(SQLIdentifier.quote(source.foreignKey))"
        let targetSQL = """
            SELECT \(Target.selection(qualifiedBy: target.parentTable)), \(sourceKey) FROM \(join) \
            JOIN \(targetTable) ON \(target.parentCorrelation) \
            WHERE \(BoundKeys.membership(of: sourceKey)) ORDER BY \(targetTable).rowid
            """
        let targets = try fetchKeyed(Target.self, sql: targetSQL, arguments: [try BoundKeys(sources.map(\.key)).argument])
        let bySource = Dictionary(grouping: targets, by: \.key)
        return sources.map { source in (source.model, bySource[source.key]?.map(\.model) ?? []) }
    }
}
