/// The rows of one table that a transaction inserted, updated and deleted.
///
/// A rowid appears in at most one set, by its state before and after the transaction:
/// absent then present is inserted, present then present is updated, present then absent
/// is deleted; a row inserted and deleted in the same transaction is not reported.
public struct TableChanges: Sendable, Equatable, CustomStringConvertible {
    /// Rowids of rows that did not exist before the transaction and do after.
    public var inserted: Set<Int64> = []
    /// Rowids of rows that existed before and after and were written.
    public var updated: Set<Int64> = []
    /// Rowids of rows that existed before and do not after.
    public var deleted: Set<Int64> = []
    /// Whether the table may have changed in ways not listed row by row; re-read it.
    public var isWhollyChanged = false

    /// No changes.
    public init() {}

    /// Changes with the given sets.
    public init(inserted: Set<Int64> = [], updated: Set<Int64> = [], deleted: Set<Int64> = [], isWhollyChanged: Bool = false) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.isWhollyChanged = isWhollyChanged
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { !isWhollyChanged && inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// Every rowid listed in any of the three sets.
    public var allRowIDs: Set<Int64> { inserted.union(updated).union(deleted) }

    /// Folds the changes of a later transaction into these, keeping the before/after rule.
    public mutating func append(_ later: TableChanges) {
        isWhollyChanged = isWhollyChanged || later.isWhollyChanged
        for id in later.inserted {
            // Deleted earlier and inserted again: it existed before and exists after.
            if deleted.remove(id) != nil { updated.insert(id) } else { inserted.insert(id) }
        }
        for id in later.updated where !inserted.contains(id) { updated.insert(id) }
        for id in later.deleted {
            if inserted.remove(id) == nil {
                updated.remove(id)
                deleted.insert(id)
            }
        }
    }

    public var description: String {
        var parts: [String] = []
        if !inserted.isEmpty { parts.append("+\(inserted.sorted())") }
        if !updated.isEmpty { parts.append("~\(updated.sorted())") }
        if !deleted.isEmpty { parts.append("-\(deleted.sorted())") }
        if isWhollyChanged { parts.append("whole table") }
        return parts.isEmpty ? "none" : parts.joined(separator: " ")
    }
}
