import Foundation
import SQLiteStoreResults
import Testing

/// `ChangeSet.applied(to:…)`: content comes from the right side, and every
/// index is checked for its role.
@Suite("ChangeSet apply")
struct ChangeSetApplyTests {
    private let old = snapshot(("a", [1, 2, 3]), ("b", [4]))

    @Test func providersSupplyOnlyNewContent() throws {
        let changeSet = ChangeSet(
            sectionInserts: [0], deletes: [path(0, 0)], inserts: [path(1, 0)],
            moves: [.init(from: path(0, 2), to: path(2, 0))], updates: [path(0, 1)]
        )
        var askedSections: [Int] = []
        var askedRows: [IndexPath] = []
        let applied = try changeSet.applied(
            to: old,
            insertedSection: {
                askedSections.append($0); return .init(name: "new", ids: [9])
            },
            insertedRow: {
                askedRows.append($0); return 8
            }
        )
        #expect(applied == snapshot(("new", [9]), ("a", [8, 2]), ("b", [3, 4])))
        #expect(askedSections == [0] && askedRows == [path(1, 0)])
    }

    @Test func newSnapshotProvidesOnlyInsertedContent() throws {
        // The new snapshot disagrees about the untouched row: the old one wins.
        let applied = try ChangeSet(inserts: [path(1, 0)]).applied(to: old, new: snapshot(("a", [1, 2, 7]), ("b", [5, 4])))
        #expect(applied == snapshot(("a", [1, 2, 3]), ("b", [5, 4])))
    }

    @Test(arguments: [
        (ChangeSet(sectionDeletes: [2]), ChangeSetError.invalidSection(2, .sectionDelete)),
        (ChangeSet(sectionInserts: [3]), .invalidSection(3, .sectionInsert)),
        (ChangeSet(sectionDeletes: [1, 1], sectionInserts: [0]), .invalidSection(1, .sectionDelete)),
        (ChangeSet(deletes: [path(0, 3)]), .invalidIndexPath(path(0, 3), .delete)),
        (ChangeSet(deletes: [path(2, 0)]), .invalidIndexPath(path(2, 0), .delete)),
        (ChangeSet(deletes: [IndexPath(index: 0)]), .invalidIndexPath(IndexPath(index: 0), .delete)),
        (ChangeSet(sectionDeletes: [1], deletes: [path(1, 0)]), .invalidIndexPath(path(1, 0), .delete)),
        (ChangeSet(sectionInserts: [0], inserts: [path(0, 0)]), .invalidIndexPath(path(0, 0), .insert)),
        (ChangeSet(inserts: [path(0, 4)]), .invalidIndexPath(path(0, 4), .insert)),
        (ChangeSet(inserts: [path(0, -1)]), .invalidIndexPath(path(0, -1), .insert)),
        (
            ChangeSet(deletes: [path(0, 0)], moves: [.init(from: path(0, 0), to: path(1, 0))]),
            .invalidIndexPath(path(0, 0), .moveSource)
        ),
        (
            ChangeSet(inserts: [path(1, 0)], moves: [.init(from: path(0, 0), to: path(1, 0))]),
            .invalidIndexPath(path(1, 0), .moveDestination)
        ),
        (ChangeSet(moves: [.init(from: path(0, 0), to: path(1, 2))]), .invalidIndexPath(path(1, 2), .moveDestination)),
        (
            ChangeSet(moves: [.init(from: path(0, 0), to: path(0, 1))], updates: [path(0, 0)]),
            .invalidIndexPath(path(0, 0), .update)
        ),
        (ChangeSet(updates: [path(1, 1)]), .invalidIndexPath(path(1, 1), .update)),
        (ChangeSet(updates: [path(0, 1), path(0, 1)]), .invalidIndexPath(path(0, 1), .update)),
    ])
    func invalidChangeSetsThrow(changeSet: ChangeSet, error: ChangeSetError) {
        #expect(throws: error) {
            try changeSet.applied(to: old, insertedSection: { _ in .init(ids: []) }, insertedRow: { _ in 0 })
        }
    }

    @Test func shapeOfNewSnapshotIsChecked() {
        #expect(throws: ChangeSetError.countMismatch(section: nil, expected: 2, actual: 1)) {
            try ChangeSet.empty.applied(to: old, new: snapshot(("a", [1, 2, 3])))
        }
        #expect(throws: ChangeSetError.countMismatch(section: 1, expected: 1, actual: 2)) {
            try ChangeSet.empty.applied(to: old, new: snapshot(("a", [1, 2, 3]), ("b", [4, 5])))
        }
        #expect(throws: ChangeSetError.invalidIndexPath(path(1, 1), .insert)) {
            try ChangeSet(inserts: [path(1, 1)]).applied(to: old, new: old)
        }
    }

    @Test func errorsExplainThemselves() {
        #expect(ChangeSetError.invalidIndexPath(path(1, 2), .moveSource).description == "invalid move source at 1.2")
        #expect(ChangeSetError.invalidSection(4, .sectionInsert).description == "invalid section insert of section 4")
    }
}
