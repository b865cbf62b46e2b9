import Foundation

extension ChangeSet {
    /// Concatenates change sets that touch disjoint sections or rows, such as
    /// the children of a composite data source after their offsets were
    /// applied. Overlaps are not detected here; `applied(to:)` rejects them.
    public init(merging changeSets: some Sequence<ChangeSet>) {
        var merged = (
            sectionDeletes: [Int](), sectionInserts: [Int](), deletes: [IndexPath](),
            inserts: [IndexPath](), moves: [Move](), updates: [IndexPath]()
        )
        for changeSet in changeSets {
            merged.sectionDeletes += changeSet.sectionDeletes
            merged.sectionInserts += changeSet.sectionInserts
            merged.deletes += changeSet.deletes
            merged.inserts += changeSet.inserts
            merged.moves += changeSet.moves
            merged.updates += changeSet.updates
        }
        self.init(
            sectionDeletes: merged.sectionDeletes, sectionInserts: merged.sectionInserts,
            deletes: merged.deletes, inserts: merged.inserts, moves: merged.moves, updates: merged.updates
        )
    }
}
