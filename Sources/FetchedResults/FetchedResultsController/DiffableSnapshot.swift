import Foundation
import SQLiteStoreCore

/// Fetched results in the shape diffable data sources take (`NSDiffableDataSourceSnapshot`
/// in UIKit and AppKit): unique section identifiers, each with its item identifiers, and the
/// items whose content changed since the previous snapshot (to reconfigure).
///
/// Make the first one from results, then follow each change with `applying(_:)`, which
/// costs O(changes + rows of the sections it touches) and keeps the identities:
///
/// ```swift
/// var snapshot = DiffableSnapshot()
/// for try await change in controller.changes(initial: true) {
///     snapshot = try snapshot.applying(change)
///     dataSource.apply(snapshot.appleSnapshot)   // UIKit/AppKit, see `appleSnapshot`
/// }
/// ```
public struct DiffableSnapshot: Sendable, Hashable {
    /// One section: its identifier and its items, in order.
    public struct Section: Sendable, Hashable {
        /// The section's identifier.
        public var id: SectionID
        /// The identities of the section's rows, in order.
        public var items: [ObjectID]
    }

    /// A section's identifier: its name, made unique by counting the earlier sections of the
    /// same name (two section key values, such as `2` and `'2'`, can share a name).
    public struct SectionID: Sendable, Hashable {
        /// The section's name (`nil` for NULL, or when the request has no section key).
        public var name: String?
        /// How many earlier sections have the same name; 0 unless names repeat.
        public var occurrence: Int
    }

    /// The sections, in order.
    public private(set) var sections: [Section]
    /// The items whose content changed in the change that led to this snapshot.
    public private(set) var reconfiguredItems: [ObjectID]

    /// No sections: what a list shows before the first results.
    public init() {
        sections = []
        reconfiguredItems = []
    }

    /// The snapshot of `results`: O(n).
    public init(_ results: FetchedResultsSnapshot) {
        self.init(results.sectionedSnapshot())
    }

    /// The snapshot of sections of object identities: O(n).
    public init(_ snapshot: SectionedSnapshot<ObjectID>) {
        sections = Self.identified(snapshot.sections)
        reconfiguredItems = []
    }

    /// The section identifiers, in order.
    public var sectionIdentifiers: [SectionID] { sections.map(\.id) }

    /// Every item, section after section.
    public var itemIdentifiers: [ObjectID] { sections.flatMap(\.items) }

    /// The snapshot after `change`, applied to this one (which must show the results `change`
    /// starts from); its `reconfiguredItems` are the rows the change updated. Throws when
    /// the change does not fit this snapshot.
    public func applying(_ change: FetchedResultsChange) throws(ChangeSetError) -> DiffableSnapshot {
        let old = SectionedSnapshot(sections: sections.map { SectionedSnapshot.Section(name: $0.id.name, ids: $0.items) })
        let newSections = change.results.sections
        let changeSet = change.changeSet
        let applied = try changeSet.applied(
            to: old,
            insertedSection: { section in
                .init(
                    name: newSections[section].name,
                    ids: (0..<newSections[section].numberOfObjects).compactMap {
                        change.results.objectID(at: IndexPath(row: $0, section: section))
                    })
            },
            // A row outside the new results makes its section longer than the new one, caught below.
            insertedRow: { change.results.objectID(at: $0) ?? ObjectID(table: change.results.table, rowID: -1) }
        )
        guard applied.sections.count == newSections.count else {
            throw .countMismatch(section: nil, expected: applied.sections.count, actual: newSections.count)
        }
        for (index, (made, expected)) in zip(applied.sections, newSections).enumerated() where made.ids.count != expected.numberOfObjects {
            throw .countMismatch(section: index, expected: made.ids.count, actual: expected.numberOfObjects)
        }
        var next = DiffableSnapshot(applied)
        next.reconfiguredItems =
            changeSet.updates.compactMap { old.id(at: $0) }
            + changeSet.moves.filter(\.isChanged).compactMap { applied.id(at: $0.to) }
        return next
    }

    private static func identified(_ sections: [SectionedSnapshot<ObjectID>.Section]) -> [Section] {
        var seen: [String?: Int] = [:]
        return sections.map { section in
            let occurrence = seen[section.name, default: 0]
            seen[section.name] = occurrence + 1
            return Section(id: SectionID(name: section.name, occurrence: occurrence), items: section.ids)
        }
    }
}

// Diffable data sources exist in UIKit (not on watchOS, whose UIKit has none) and AppKit: the
// same guard as `IndexPath+Rows.swift`, so watchOS never imports UIKit's `IndexPath` names.
#if (canImport(UIKit) && !os(watchOS)) || canImport(AppKit)
#if canImport(UIKit) && !os(watchOS)
import UIKit
#else
import AppKit
#endif

extension DiffableSnapshot {
    /// The snapshot for a `UITableViewDiffableDataSource`, `UICollectionViewDiffableDataSource`
    /// or their AppKit counterparts, with the changed items marked for reconfiguration.
    ///
    /// Written without an Apple SDK at hand (the package is built and tested on Linux): it
    /// uses only `appendSections`, `appendItems(_:toSection:)` and `reconfigureItems`.
    public var appleSnapshot: NSDiffableDataSourceSnapshot<SectionID, ObjectID> {
        var snapshot = NSDiffableDataSourceSnapshot<SectionID, ObjectID>()
        snapshot.appendSections(sectionIdentifiers)
        for section in sections { snapshot.appendItems(section.items, toSection: section.id) }
        snapshot.reconfigureItems(reconfiguredItems)
        return snapshot
    }
}
#endif
