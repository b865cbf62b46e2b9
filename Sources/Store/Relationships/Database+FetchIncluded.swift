extension Database {
    /// The rows `request` selects, in its order, each with the related objects it includes
    /// (``StoreRequest/including(_:)``): one statement for the rows, then one per included
    /// relationship, whatever the number of rows.
    ///
    /// ```swift
    /// let request = StoreRequest<Item>().order { $0.title.ascending }.including(Item.list).including(all: Item.tags)
    /// let rows = try store.read { db in try db.fetchRows(request) }
    /// for row in rows { print(row.title, row.list?.name ?? "no list", row.tags.map(\.name)) }
    /// ```
    public func fetchRows<M>(_ request: StoreRequest<M>) throws -> [FetchedRow<M>] {
        let keyColumns = request.inclusions.map { SQLIdentifier.quote($0.keyColumn) }
        let (sql, arguments) = try selectSQL(request, columns: ([M.selection] + keyColumns).joined(separator: ", "))
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        let models = ModelRows<M>(statement: statement)
        let firstKey = statement.columnCount - keyColumns.count
        var rows: [(model: M, keys: [DatabaseValue])] = []
        while try statement.step() {
            rows.append((try models.decodeRow(), keyColumns.indices.map { statement.value(at: firstKey + $0) }))
        }
        return try withIncludedObjects(rows, request.inclusions)
    }

    /// The rows `request` selects, in its order, each decoded with its included objects into
    /// `type`, a `Decodable` type of yours (see ``FetchedRow/decode(_:)``).
    ///
    /// ```swift
    /// struct ItemRow: Decodable {
    ///     var item: Item
    ///     var list: TodoList?
    ///     var tags: [Tag]
    /// }
    /// let itemRows = try store.read { db in try db.fetch(request, as: ItemRow.self) }
    /// ```
    public func fetch<M, T: Decodable>(_ request: StoreRequest<M>, as type: T.Type) throws -> [T] {
        try fetchRows(request).map { try $0.decode(type) }
    }

    /// The rows of `request`'s table among `rowIDs`, each with the objects the request
    /// includes, by rowid: the fetched-results controller's batch. The request's predicate
    /// and order do not apply.
    package func fetchRows<M>(_ request: StoreRequest<M>, rowIDs: some Collection<Int64>) throws -> [Int64: FetchedRow<M>] {
        let rowID = try rowIDName(of: request.tableName)
        let keyColumns = request.inclusions.map { SQLIdentifier.quote($0.keyColumn) }
        var rows: [(model: M, keys: [DatabaseValue])] = []
        var rowIDsRead: [Int64] = []
        var models: ModelRows<M>?
        let columns = ([M.selection] + keyColumns + [rowID]).joined(separator: ", ")
        try forEachRow(in: request.tableName, columns: columns, rowIDs: rowIDs, rowID: rowID) { statement in
            if models?.statement !== statement { models = ModelRows(statement: statement) }
            guard let models, let read = statement.integer(at: statement.columnCount - 1) else { return }
            let firstKey = statement.columnCount - 1 - keyColumns.count
            rows.append((try models.decodeRow(), keyColumns.indices.map { statement.value(at: firstKey + $0) }))
            rowIDsRead.append(read)
        }
        return Dictionary(zip(rowIDsRead, try withIncludedObjects(rows, request.inclusions))) { first, _ in first }
    }

    /// `rows` (each model with the values of its inclusions' key columns) with their
    /// included objects, read for all rows at once, one inclusion at a time.
    private func withIncludedObjects<M>(
        _ rows: [(model: M, keys: [DatabaseValue])], _ inclusions: [IncludedRelationship]
    ) throws -> [FetchedRow<M>] {
        let loaded = try inclusions.indices.map { index in try inclusions[index].load(self, rows.map { $0.keys[index] }) }
        return rows.map { row in
            var related: [String: (any Sendable)?] = [:]
            for (index, inclusion) in inclusions.enumerated() {
                // `updateValue`, since assigning `nil` through the subscript would remove the entry.
                related.updateValue(loaded[index][row.keys[index]] ?? inclusion.empty, forKey: inclusion.name)
            }
            return FetchedRow(model: row.model, related: related)
        }
    }
}
