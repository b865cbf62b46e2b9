extension Database {
    /// The parents that `request` selects, in its order, each with its children through
    /// `relationship`: two queries, whatever the number of parents.
    ///
    /// ```swift
    /// let lists = try db.fetch(StoreRequest<TodoList>(), including: TodoList.items)
    /// for (list, items) in lists { print(list.name, items.count) }
    /// ```
    ///
    /// The children are those `children` selects (all, in rowid order, by default), grouped
    /// by parent in its order; the second query binds the parents' keys as one JSON array.
    /// `children` may filter and order but not limit: a window would apply to all parents'
    /// children together (`SQLITE_MISUSE`).
    public func fetch<Parent, Child>(
        _ request: StoreRequest<Parent>, including relationship: ToMany<Parent, Child>,
        children: StoreRequest<Child> = StoreRequest()
    ) throws -> [(Parent, [Child])] {
        guard children.limit == nil, children.offset == nil else {
            throw StoreError.misuse("the children of a to-many fetch cannot have a limit or offset; filter them instead")
        }
        let link = relationship.link
        let (sql, arguments) = try selectSQL(request, columns: Parent.selection + ", " + SQLIdentifier.quote(link.referencedKey))
        let parents = try fetchKeyed(Parent.self, sql: sql, arguments: arguments)
        let byParent = try self.children(through: relationship, parentKeys: parents.map(\.key), children: children)
        return parents.map { parent in (parent.model, byParent[parent.key] ?? []) }
    }

    /// The children of the parents whose keys are `parentKeys`, by parent key, in the
    /// `children` request's order: one statement.
    func children<Parent, Child>(
        through relationship: ToMany<Parent, Child>, parentKeys: [DatabaseValue], children: StoreRequest<Child>
    ) throws -> [DatabaseValue: [Child]] {
        let foreignKey = SQLIdentifier.quote(relationship.link.foreignKey)
        let ofParents = children.filter(
            SQLExpression(sql: BoundKeys.membership(of: foreignKey), arguments: [try BoundKeys(parentKeys).argument], columns: nil))
        let (childSQL, childArguments) = try selectSQL(ofParents, columns: Child.selection + ", " + foreignKey)
        return Dictionary(grouping: try fetchKeyed(Child.self, sql: childSQL, arguments: childArguments), by: \.key)
            .mapValues { $0.map(\.model) }
    }
}
