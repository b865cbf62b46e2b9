import Foundation

/// The step from one sectioned result to the next, in the coordinates of
/// UIKit/AppKit batch updates (`performBatchUpdates`).
///
/// Coordinates:
/// - `sectionDeletes`, `deletes`, `updates` and the `from` of each move are
///   positions in the **old** results;
/// - `sectionInserts`, `inserts` and the `to` of each move are positions in
///   the **new** results.
///
/// Rules:
/// - Rows inside a deleted section are implied deleted and never listed; rows
///   inside an inserted section are implied inserted and never listed. So a
///   row that goes into an inserted section is listed only as a delete (from
///   its surviving old section), a row that leaves a deleted section only as
///   an insert (into its surviving new section), and a row that goes from a
///   deleted section to an inserted one is not listed at all. (UIKit forbids
///   moves out of deleted or into inserted sections.)
/// - A moved row whose values changed too is one move with `isChanged`, never
///   a delete and an insert (except in the section case above).
/// - A row is never both moved and updated: `updates` lists only rows that
///   stayed in place.
/// - Sections are never moved: a surviving section may change index only
///   because others were deleted or inserted.
///
/// Every array is kept sorted ascending; moves sort by `from`, then `to`.
/// The invariant: `try changeSet.applied(to: old, new: new) == new`.
public struct ChangeSet: Sendable, Hashable {
    /// A row that moved, possibly across sections.
    public struct Move: Sendable, Hashable, Comparable {
        /// The row's index path in the old results.
        public var from: IndexPath
        /// The row's index path in the new results.
        public var to: IndexPath
        /// Whether the row's values changed too (reload it after the batch).
        public var isChanged: Bool

        /// Creates a move from an old index path to a new one.
        public init(from: IndexPath, to: IndexPath, isChanged: Bool = false) {
            self.from = from
            self.to = to
            self.isChanged = isChanged
        }

        /// Orders moves by source, then destination, then unchanged first.
        public static func < (lhs: Move, rhs: Move) -> Bool {
            (lhs.from, lhs.to, lhs.isChanged ? 1 : 0) < (rhs.from, rhs.to, rhs.isChanged ? 1 : 0)
        }
    }

    /// Indexes of deleted sections, in the old results.
    public let sectionDeletes: [Int]
    /// Indexes of inserted sections, in the new results.
    public let sectionInserts: [Int]
    /// Deleted rows, in old index paths (never inside a deleted section).
    public let deletes: [IndexPath]
    /// Inserted rows, in new index paths (never inside an inserted section).
    ///
    /// Rows appended at the end of a section (the rest of the results after a first page) are
    /// held as their range, and listed on each read of `inserts`: read it once when using it
    /// more than once.
    public var inserts: [IndexPath] { insertedRows.array }
    /// `inserts`, held compactly.
    let insertedRows: IndexPathList
    /// Moved rows, from old to new index paths (never out of a deleted or into an inserted section).
    public let moves: [Move]
    /// Rows that stayed in place but whose values changed, in old index paths.
    public let updates: [IndexPath]

    /// Creates a change set; every array is sorted ascending.
    public init(
        sectionDeletes: [Int] = [],
        sectionInserts: [Int] = [],
        deletes: [IndexPath] = [],
        inserts: [IndexPath] = [],
        moves: [Move] = [],
        updates: [IndexPath] = []
    ) {
        self.sectionDeletes = sectionDeletes.sortedIfNeeded()
        self.sectionInserts = sectionInserts.sortedIfNeeded()
        self.deletes = deletes.sortedIfNeeded()
        insertedRows = IndexPathList(inserts.sortedIfNeeded())
        self.moves = moves.sortedIfNeeded()
        self.updates = updates.sortedIfNeeded()
    }

    /// The change set inserting sections `sectionInserts` and appending rows `rows` to the end
    /// of section `section` (in new index paths), the rows held as their range.
    init(sectionInserts: [Int], appending rows: Range<Int>, toSection section: Int) {
        self.sectionDeletes = []
        self.sectionInserts = sectionInserts.sortedIfNeeded()
        deletes = []
        insertedRows = IndexPathList(rows: rows, section: section)
        moves = []
        updates = []
    }

    /// The change set that changes nothing.
    public static let empty = ChangeSet()

    /// Whether the change set changes nothing.
    public var isEmpty: Bool {
        sectionDeletes.isEmpty && sectionInserts.isEmpty && deletes.isEmpty
            && insertedRows.isEmpty && moves.isEmpty && updates.isEmpty
    }
}

extension Array where Element: Comparable {
    /// The elements in ascending order: the array itself, not a sorted copy, when they are in
    /// order already (the rows a first page's rest appends: a million index paths at 1M).
    fileprivate func sortedIfNeeded() -> [Element] {
        zip(self, dropFirst()).allSatisfy { !($1 < $0) } ? self : sorted()
    }
}
