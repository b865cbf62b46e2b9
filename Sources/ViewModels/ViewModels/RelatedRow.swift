import SQLiteStoreCore

/// What a stored object points at through one to-one relationship, read in one snapshot:
/// whether the object still exists, the related row, whether its key refers to a row that
/// does not exist, and whether the row it pointed at before still exists (so a nullified
/// reference can be told from a deleted row).
struct RelatedRow<Parent: StoreModel>: Sendable {
    /// The related row's identity and value.
    struct Found: Sendable {
        let id: ObjectID
        let model: Parent
    }

    /// Whether the object itself still exists.
    let objectExists: Bool
    /// The row the object's foreign key refers to, if any exists.
    let parent: Found?
    /// Whether the object's foreign key holds a key that no row holds (a dangling reference,
    /// left by a connection with foreign keys off): a row may take that key later.
    let refersToMissingRow: Bool
    /// Whether the row the object referred to before (`former`) still exists; `true` without one.
    let formerParentExists: Bool

    /// Reads, for the object `objectID`, the row `link` leads to: three indexed lookups by
    /// rowid or by the referenced key, whatever the tables' sizes.
    static func read(of objectID: ObjectID, through link: ToOneLink, former: ObjectID?, in store: Store) throws -> RelatedRow {
        try store.read { db in
            let childRowID = try db.rowIDName(of: link.childTable)
            let child = SQLIdentifier.quote(link.childTable)
            let parent = SQLIdentifier.quote(link.parentTable)
            let objectsKey = "SELECT \(child).\(SQLIdentifier.quote(link.foreignKey)) FROM \(child) WHERE \(child).\(childRowID) = ?"
            let referenced = SQLExpression(
                sql: "\(parent).\(SQLIdentifier.quote(link.referencedKey)) = (\(objectsKey))", arguments: [objectID.rowID])
            let found = try db.fetchByRowID(StoreRequest<Parent>(tableName: link.parentTable, predicate: referenced)).first
            let key = try db.fetchRows(sql: objectsKey, arguments: [objectID.rowID]).first?[0]
            return RelatedRow(
                objectExists: key != nil,
                parent: found.map { Found(id: ObjectID(table: link.parentTable, rowID: $0.key), model: $0.value) },
                refersToMissingRow: found == nil && key.map { !$0.isNull } ?? false,
                formerParentExists: try former.map { !(try db.existingRowIDs(in: link.parentTable, among: [$0.rowID]).isEmpty) } ?? true)
        }
    }
}
