extension Database {
    /// The sources that `request` selects, in its order, each with its targets through
    /// `relationship`: three queries, whatever the number of sources.
    ///
    /// ```swift
    /// let tagged = try db.fetch(StoreRequest<Item>(), including: Item.tags)
    /// for (item, tags) in tagged { print(item.title, tags.map(\.name)) }
    /// ```
    ///
    /// The targets are those `targets` selects (all, in rowid order, by default), in its
    /// order, so that each source's targets can be filtered and sorted:
    ///
    /// ```swift
    /// let byName = StoreRequest<Tag>().order(Column("name").ascending)
    /// let sorted = try db.fetch(StoreRequest<Item>(), including: Item.tags, targets: byName)
    /// ```
    ///
    /// The second query reads the pairs of keys in the join table for the sources' keys,
    /// bound as one JSON array; the third reads the targets those pairs name. A target
    /// paired twice with a source is listed twice. `targets` may filter and order but not
    /// limit: a window would apply to all sources' targets together (`SQLITE_MISUSE`).
    public func fetch<Source, Target>(
        _ request: StoreRequest<Source>, including relationship: ManyToMany<Source, Target>,
        targets: StoreRequest<Target> = StoreRequest()
    ) throws -> [(Source, [Target])] {
        guard targets.limit == nil, targets.offset == nil else {
            throw StoreError.misuse("the targets of a many-to-many fetch cannot have a limit or offset; filter them instead")
        }
        let (sql, arguments) = try selectSQL(
            request, columns: Source.selection + ", " + SQLIdentifier.quote(relationship.source.referencedKey))
        let sources = try fetchKeyed(Source.self, sql: sql, arguments: arguments)
        let bySource = try self.targets(through: relationship, sourceKeys: sources.map(\.key), targets: targets)
        return sources.map { source in (source.model, bySource[source.key] ?? []) }
    }

    /// The targets of the sources whose keys are `sourceKeys`, by source key, in the
    /// `targets` request's order: two statements (the join table's pairs, then the targets).
    func targets<Source, Target>(
        through relationship: ManyToMany<Source, Target>, sourceKeys: [DatabaseValue], targets: StoreRequest<Target>
    ) throws -> [DatabaseValue: [Target]] {
        let pairs = try fetchPairs(of: relationship, sourceKeys: sourceKeys)
        let targetKey = SQLIdentifier.quote(relationship.target.referencedKey)
        let paired = targets.filter(
            SQLExpression(
                sql: BoundKeys.membership(of: targetKey), arguments: [try BoundKeys(pairs.map(\.target)).argument], columns: nil))
        let (targetSQL, targetArguments) = try selectSQL(paired, columns: Target.selection + ", " + targetKey)
        let ordered = try fetchKeyed(Target.self, sql: targetSQL, arguments: targetArguments)
        let position = Dictionary(ordered.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        return Dictionary(grouping: pairs) { $0.source }.mapValues { pairs in
            pairs.compactMap { position[$0.target] }.sorted().map { ordered[$0].model }
        }
    }

    /// The join table's pairs for `sourceKeys`: each source key with the key of a target
    /// row (as the target table holds it, so that it matches the targets read by key).
    private func fetchPairs<Source, Target>(
        of relationship: ManyToMany<Source, Target>, sourceKeys: [DatabaseValue]
    ) throws -> [(source: DatabaseValue, target: DatabaseValue)] {
        let (source, target) = (relationship.source, relationship.target)
        let join = SQLIdentifier.quote(relationship.joinTable)
        let targetTable = SQLIdentifier.quote(target.parentTable)
        let sourceKey = "\(join).\(SQLIdentifier.quote(source.foreignKey))"
        let sql = """
            SELECT \(sourceKey), \(targetTable).\(SQLIdentifier.quote(target.referencedKey)) FROM \(join) \
            JOIN \(targetTable) ON \(target.parentCorrelation) \
            WHERE \(BoundKeys.membership(of: sourceKey))
            """
        return try fetchRows(sql: sql, arguments: [try BoundKeys(sourceKeys).argument]).map { ($0[0], $0[1]) }
    }
}

extension Database {
    /// The targets of the sources whose keys are `sourceKeys`, by source key, in the targets'
    /// rowid order: one statement, the join table joined to the targets (a target shared by
    /// several sources is decoded once for each).
    func targets<Source, Target>(
        through relationship: ManyToMany<Source, Target>, sourceKeys: [DatabaseValue]
    ) throws -> [DatabaseValue: [Target]] {
        let target = relationship.target
        let join = SQLIdentifier.quote(relationship.joinTable)
        let targetTable = SQLIdentifier.quote(target.parentTable)
        let sourceKey = "\(join).\(SQLIdentifier.quote(relationship.source.foreignKey))"
        let sql = """
            SELECT \(Target.selection(qualifiedBy: target.parentTable)), \(sourceKey) FROM \(join) \
            JOIN \(targetTable) ON \(target.parentCorrelation) \
            WHERE \(BoundKeys.membership(of: sourceKey)) ORDER BY \(targetTable).\(try rowIDName(of: target.parentTable))
            """
        let paired = try fetchKeyed(Target.self, sql: sql, arguments: [try BoundKeys(sourceKeys).argument])
        return Dictionary(grouping: paired, by: \.key).mapValues { $0.map(\.model) }
    }
}
