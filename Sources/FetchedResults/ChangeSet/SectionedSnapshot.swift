import Foundation

/// The identities of a sectioned list at one moment: its sections, in order,
/// each with an optional name and the IDs of its rows, in order.
///
/// `ChangeSet(from:to:updated:)` computes the step between two snapshots and
/// `ChangeSet.applied(to:new:)` replays it.
public struct SectionedSnapshot<ID: Hashable & Sendable>: Sendable, Hashable {
    /// One section of a snapshot. Sections are equal when their IDs are equal and their
    /// names are the same UTF-8 bytes: SQLite tells `'Café'` in NFC from `'Café'` in NFD, so
    /// a snapshot does too (Swift's `String ==` would call them equal).
    public struct Section: Sendable, Hashable {
        /// The section's name (its section key), or `nil` for an unnamed section.
        public var name: String?
        /// The IDs of the section's rows, in display order.
        public var ids: [ID]

        /// Creates a section with a name and its row IDs.
        public init(name: String? = nil, ids: [ID]) {
            self.name = name
            self.ids = ids
        }

        public static func == (lhs: Section, rhs: Section) -> Bool {
            lhs.ids == rhs.ids && lhs.name.map { Array($0.utf8) } == rhs.name.map { Array($0.utf8) }
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name.map { Array($0.utf8) })
            hasher.combine(ids)
        }
    }

    /// The sections, in display order.
    public var sections: [Section]

    /// Creates a snapshot from its sections.
    public init(sections: [Section] = []) {
        self.sections = sections
    }

    /// Creates a flat snapshot: one section holding every row.
    public init(ids: [ID], sectionName: String? = nil) {
        self.init(sections: [Section(name: sectionName, ids: ids)])
    }

    /// The number of rows across all sections.
    public var rowCount: Int {
        sections.reduce(0) { $0 + $1.ids.count }
    }

    /// The ID at an index path, or `nil` when the path is out of bounds.
    public func id(at indexPath: IndexPath) -> ID? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section) else { return nil }
        let ids = sections[indexPath.section].ids
        return ids.indices.contains(indexPath.row) ? ids[indexPath.row] : nil
    }
}
