extension Database {
    /// The children that `request` selects, in its order, each with its parent through
    /// `relationship` (`nil` when its foreign key is NULL or points at no row): two queries,
    /// whatever the number of children.
    ///
    /// ```swift
    /// let items = try db.fetch(StoreRequest<Item>().order { $0.title.ascending }, including: Item.list)
    /// for (item, list) in items { print(item.title, list?.name ?? "no list") }
    /// ```
    ///
    /// The first query reads the children and their foreign keys, the second the distinct
    /// parents they point at (their keys bound as one JSON array), each parent decoded once
    /// and shared by its children.
    public func fetch<Child, Parent>(
        _ request: StoreRequest<Child>, including relationship: ToOne<Child, Parent>
    ) throws -> [(Child, Parent?)] {
        let link = relationship.link
        let (sql, arguments) = try selectSQL(request, columns: Child.selection + ", " + SQLIdentifier.quote(link.foreignKey))
        let children = try fetchKeyed(Child.self, sql: sql, arguments: arguments)
        let byKey = try parents(through: link, keys: children.map(\.key), as: Parent.self)
        return children.map { ($0.model, byKey[$0.key]) }
    }

    /// The parents whose key (`link`'s referenced key) is among `keys`, by key, each decoded
    /// once: one statement.
    func parents<Parent: StoreModel>(
        through link: ToOneLink, keys: [DatabaseValue], as type: Parent.Type
    ) throws -> [DatabaseValue: Parent] {
        let parents = try fetchRows(Parent.self, table: link.parentTable, whereKey: link.referencedKey, in: keys)
        return Dictionary(parents.map { ($0.key, $0.model) }) { first, _ in first }
    }

    /// The models of `table` whose `key` column holds one of `keys`, each with its key.
    func fetchRows<M: StoreModel>(
        _ type: M.Type, table: String, whereKey key: String, in keys: [DatabaseValue]
    ) throws -> [(model: M, key: DatabaseValue)] {
        let quotedKey = SQLIdentifier.quote(key)
        let sql =
            "SELECT \(M.selection), \(quotedKey) FROM \(SQLIdentifier.quote(table)) WHERE \(BoundKeys.membership(of: quotedKey))"
        return try fetchKeyed(M.self, sql: sql, arguments: [try BoundKeys(keys).argument])
    }
}
