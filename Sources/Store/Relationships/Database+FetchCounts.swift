extension Database {
    /// The parents that `request` selects, in its order, each with its number of children
    /// through `relationship`: one query, with a correlated `count(*)` per parent.
    ///
    /// ```swift
    /// let counts = try db.fetch(StoreRequest<TodoList>(), counting: TodoList.items)
    /// ```
    public func fetch<Parent, Child>(_ request: StoreRequest<Parent>, counting relationship: ToMany<Parent, Child>) throws -> [(
        Parent, Int
    )] {
        try fetch(request, counting: relationship.count)
    }

    /// The models that `request` selects, in its order, each with `count`, the number of its
    /// related rows that meet a condition: `counting: TodoList.items.count { $0.done == false }`.
    public func fetch<M>(_ request: StoreRequest<M>, counting count: RelatedCount<M>) throws -> [(M, Int)] {
        let (sql, arguments) = try selectSQL(request, columns: M.selection + ", " + count.expression.sql)
        let counted = try fetchKeyed(M.self, sql: sql, arguments: count.expression.arguments + arguments)
        return counted.map { model, count in (model, Int.fromDatabaseValue(count) ?? 0) }
    }
}
