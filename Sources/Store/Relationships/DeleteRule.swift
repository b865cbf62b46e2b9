/// What SQLite does to the rows that point at a deleted row: the `ON DELETE` clause of the
/// foreign key, read from the schema (`db.deleteRule(of: Item.list)`).
///
/// The store publishes what the rule did: rows deleted by `CASCADE` and rows updated by
/// `SET NULL` or `SET DEFAULT` appear in the transaction's `StoreChanges`.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// `ON DELETE CASCADE`: the children are deleted with the parent.
    case cascade = "CASCADE"
    /// `ON DELETE SET NULL`: the children's foreign key becomes NULL.
    case setNull = "SET NULL"
    /// `ON DELETE SET DEFAULT`: the children's foreign key takes its column's default.
    case setDefault = "SET DEFAULT"
    /// `ON DELETE RESTRICT`: deleting a parent that has children fails at once.
    case restrict = "RESTRICT"
    /// `ON DELETE NO ACTION`, the default: deleting a parent that has children fails when
    /// the statement ends (or at commit for a `DEFERRABLE INITIALLY DEFERRED` key).
    case noAction = "NO ACTION"
}

extension Database {
    /// The delete rule of the foreign key that `relationship` follows.
    ///
    /// Throws `SQLITE_MISMATCH` when the schema declares no such foreign key.
    public func deleteRule<Child, Parent>(of relationship: ToOne<Child, Parent>) throws -> DeleteRule {
        try deleteRule(of: relationship.link)
    }

    /// The delete rule of the foreign key that `relationship`'s inverse follows: what
    /// deleting the parent does to its children.
    public func deleteRule<Parent, Child>(of relationship: ToMany<Parent, Child>) throws -> DeleteRule {
        try deleteRule(of: relationship.link)
    }

    /// The delete rule of the foreign key `link` (for a many-to-many relationship, one of its
    /// join table's two: `db.deleteRule(of: Item.tags.source)`).
    public func deleteRule(of link: ToOneLink) throws -> DeleteRule {
        guard let key = try foreignKey(matching: link) else {
            throw StoreError.mismatch("the schema declares no foreign key \(link)")
        }
        guard let rule = DeleteRule(rawValue: key.onDelete.uppercased()) else {
            throw StoreError.mismatch("foreign key \(link) has an unknown delete rule \(key.onDelete)")
        }
        return rule
    }
}
