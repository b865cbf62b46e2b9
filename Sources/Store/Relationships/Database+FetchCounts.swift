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

    /// The value of `expression` (a subquery correlated through `link` with its parent table)
    /// for each row of that table whose key is among `keys`, by key, made by `convert`: one statement.
    func relatedValues(
        _ expression: SQLExpression, through link: ToOneLink, keys: [DatabaseValue], convert: (DatabaseValue) -> any Sendable
    ) throws -> [DatabaseValue: any Sendable] {
        let (table, key) = (SQLIdentifier.quote(link.parentTable), SQLIdentifier.quote(link.referencedKey))
        let sql = "SELECT \(table).\(key), \(expression.sql) FROM \(table) WHERE \(BoundKeys.membership(of: "\(table).\(key)"))"
        var values: [DatabaseValue: any Sendable] = [:]
        for row in try fetchRows(sql: sql, arguments: expression.arguments + [try BoundKeys(keys).argument]) {
            values[row[0]] = convert(row[1])
        }
        return values
    }
}
