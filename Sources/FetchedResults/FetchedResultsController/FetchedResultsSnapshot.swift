import Foundation
import SQLiteStoreCore

/// The identities of a controller's results at one moment, sections and order included:
/// an immutable value, cheap to copy (it shares storage with the controller's index).
public struct FetchedResultsSnapshot: Sendable {
    let index: ResultIndex
    /// The table the results come from.
    public let table: String

    init(index: ResultIndex, table: String) {
        self.index = index
        self.table = table
    }

    /// The number of objects in all sections.
    public var numberOfObjects: Int { index.count }

    /// Whether these are all the rows, rather than the first page of a fetch whose rest is
    /// still being read (it follows as a change that appends it).
    public var isComplete: Bool { !index.isFirstPage }

    /// The sections, in order; one unnamed section when the request has no section key.
    public var sections: [FetchedSection] {
        guard index.isSectioned else { return [FetchedSection(name: nil, numberOfObjects: index.count)] }
        return zip(index.sections, index.sectionCounts.all).map { section, count in
            FetchedSection(name: ResultIndex.sectionName(section.value), numberOfObjects: count)
        }
    }

    /// The number of objects in section `section` (which must exist): O(1).
    func numberOfObjects(inSection section: Int) -> Int {
        index.isSectioned ? index.sectionCounts[section] : index.count
    }

    /// The object at `indexPath`, or `nil` when it is out of bounds. O(log n).
    public func objectID(at indexPath: IndexPath) -> ObjectID? {
        index.position(of: indexPath).flatMap(index.rowID(at:)).map { ObjectID(table: table, rowID: $0) }
    }

    /// Where `id` is, or `nil` when it is not in the results. O(log n).
    public func indexPath(for id: ObjectID) -> IndexPath? {
        guard id.table.matchesSQLiteIdentifier(table) else { return nil }
        return index.indexPath(of: id.rowID)
    }

    /// The results as a `SectionedSnapshot`, for `ChangeSet.applied(to:new:)` and diffing: O(n).
    public func sectionedSnapshot() -> SectionedSnapshot<ObjectID> {
        let rows = index.snapshot()
        return SectionedSnapshot(
            sections: rows.sections.map { section in
                .init(name: section.name, ids: section.ids.map { ObjectID(table: table, rowID: $0) })
            })
    }
}
