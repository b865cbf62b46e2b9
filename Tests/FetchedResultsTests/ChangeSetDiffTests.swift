import Foundation
import SQLiteStoreResults
import Testing

/// Hand-written cases of `ChangeSet(from:to:updated:)`, each also checked to apply.
@Suite("ChangeSet diff")
struct ChangeSetDiffTests {
    /// Diffs, checks that the result applies to `old` giving `new`, and returns it.
    private func diff(
        _ old: SectionedSnapshot<Int>, _ new: SectionedSnapshot<Int>, updated: Set<Int> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ChangeSet {
        let changeSet = ChangeSet(from: old, to: new, updated: updated)
        #expect(try changeSet.applied(to: old, new: new) == new, sourceLocation: sourceLocation)
        return changeSet
    }

    @Test func emptyToEmpty() throws {
        #expect(try diff(SectionedSnapshot(), SectionedSnapshot()).isEmpty)
        #expect(try diff(SectionedSnapshot(ids: []), SectionedSnapshot(ids: [])).isEmpty)
    }

    @Test func insertsAtFrontAndEnd() throws {
        #expect(try diff(.init(ids: [1, 2]), .init(ids: [0, 1, 2])) == ChangeSet(inserts: [path(0, 0)]))
        #expect(try diff(.init(ids: [1, 2]), .init(ids: [1, 2, 3, 4])) == ChangeSet(inserts: [path(0, 2), path(0, 3)]))
    }

    @Test func deleteAll() throws {
        #expect(try diff(.init(ids: [1, 2, 3]), .init(ids: [])) == ChangeSet(deletes: [path(0, 0), path(0, 1), path(0, 2)]))
    }

    @Test func oneMove() throws {
        let changeSet = try diff(.init(ids: [1, 2, 3, 4]), .init(ids: [2, 3, 1, 4]))
        #expect(changeSet == ChangeSet(moves: [.init(from: path(0, 0), to: path(0, 2))]))
    }

    @Test func swapIsOneMove() throws {
        let changeSet = try diff(.init(ids: [1, 2]), .init(ids: [2, 1]))
        #expect(changeSet.moves.count == 1)
        #expect(changeSet == ChangeSet(moves: changeSet.moves))
    }

    @Test func reversalKeepsOneRowInPlace() throws {
        let changeSet = try diff(.init(ids: Array(0..<10)), .init(ids: (0..<10).reversed()))
        #expect(changeSet.moves.count == 9)
    }

    @Test func moveAcrossSections() throws {
        let changeSet = try diff(snapshot(("a", [1, 2]), ("b", [3])), snapshot(("a", [1]), ("b", [2, 3])))
        #expect(changeSet == ChangeSet(moves: [.init(from: path(0, 1), to: path(1, 0))]))
    }

    @Test func sectionInsertWithRows() throws {
        let changeSet = try diff(snapshot(("a", [1, 2])), snapshot(("0", [3, 2]), ("a", [1])))
        // Row 2 goes into an inserted section: only its delete is listed; row 3 is implied.
        #expect(changeSet == ChangeSet(sectionInserts: [0], deletes: [path(0, 1)]))
    }

    @Test func sectionDeleteWithRows() throws {
        let changeSet = try diff(snapshot(("a", [1]), ("b", [2, 3])), snapshot(("b", [2, 1])))
        // Row 1 leaves a deleted section: only its insert is listed; row 3 is implied.
        #expect(changeSet == ChangeSet(sectionDeletes: [0], deletes: [path(1, 1)], inserts: [path(0, 1)]))
    }

    @Test func rowFromDeletedToInsertedSectionIsNotListed() throws {
        let changeSet = try diff(snapshot(("a", [1]), ("b", [2])), snapshot(("b", [2]), ("c", [1])))
        #expect(changeSet == ChangeSet(sectionDeletes: [0], sectionInserts: [1]))
    }

    @Test func survivingSectionsChangeIndex() throws {
        let changeSet = try diff(snapshot(("a", [1]), ("b", [2]), ("c", [3])), snapshot(("b", [2]), ("c", [3, 1])))
        #expect(changeSet == ChangeSet(sectionDeletes: [0], inserts: [path(1, 1)]))
    }

    @Test func reorderedSectionIsDeletedAndInserted() throws {
        let changeSet = try diff(snapshot(("a", [1]), ("b", [2]), ("c", [3])), snapshot(("c", [3]), ("a", [1]), ("b", [2])))
        #expect(changeSet == ChangeSet(sectionDeletes: [2], sectionInserts: [0]))
    }

    @Test func movedAndChanged() throws {
        let changeSet = try diff(.init(ids: [1, 2, 3]), .init(ids: [2, 3, 1]), updated: [1])
        #expect(changeSet == ChangeSet(moves: [.init(from: path(0, 0), to: path(0, 2), isChanged: true)]))
    }

    @Test func updateInPlace() throws {
        let changeSet = try diff(snapshot(("a", [1, 2]), ("b", [3])), snapshot(("a", [0, 1, 2]), ("b", [3])), updated: [2, 3, 9])
        #expect(changeSet == ChangeSet(inserts: [path(0, 0)], updates: [path(0, 1), path(1, 0)]))
    }

    @Test func updatedRowsThatLeaveAreDeletes() throws {
        let changeSet = try diff(.init(ids: [1, 2]), .init(ids: [2]), updated: [1, 2])
        #expect(changeSet == ChangeSet(deletes: [path(0, 0)], updates: [path(0, 1)]))
    }

    @Test func repeatedIDsMatchTheirFirstOccurrence() throws {
        let changeSet = try diff(.init(ids: [1, 1, 2]), .init(ids: [2, 1, 1]))
        #expect(
            changeSet
                == ChangeSet(
                    deletes: [path(0, 1)], inserts: [path(0, 2)],
                    moves: [.init(from: path(0, 0), to: path(0, 1))]))
    }

    @Test func repeatedSectionNamesMatchInOrder() throws {
        let changeSet = try diff(snapshot((nil, [1]), (nil, [2])), snapshot((nil, [1])))
        #expect(changeSet == ChangeSet(sectionDeletes: [1]))
    }

    @Test func largeResultsDiffByID() throws {
        let ids = Array(0..<50_000)
        #expect(try diff(.init(ids: []), .init(ids: ids)).inserts.count == ids.count)
        let reversed = try diff(.init(ids: ids), .init(ids: ids.reversed()))
        #expect(reversed.moves.count == ids.count - 1)
        #expect(reversed.deletes.isEmpty && reversed.inserts.isEmpty)
    }
}
