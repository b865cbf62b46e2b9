import Foundation
import SQLiteStoreResults
import Testing

/// Conversion of flat change sets to Swift's `CollectionDifference`.
@Suite("ChangeSet to CollectionDifference")
struct ChangeSetCollectionDifferenceTests {
    @Test func randomFlatListsConvert() throws {
        var generator = SnapshotGenerator(random: SeededGenerator(seed: randomizedTestSeed))
        for _ in 0..<2_000 {
            let old = generator.snapshot().sections.flatMap(\.ids)
            let new =
                Bool.random(using: &generator.random)
                ? generator.edit(.init(ids: old)).sections.flatMap(\.ids) : generator.snapshot().sections.flatMap(\.ids)
            let changeSet = ChangeSet(from: .init(ids: old), to: .init(ids: new), updated: [1, 2, 3])
            let difference = try changeSet.collectionDifference(from: old, to: new)
            try #require(
                old.applying(difference) == new,
                "seed \(randomizedTestSeed): \(old) → \(new) via \(changeSet)")
            #expect(difference.insertions.count == changeSet.inserts.count + changeSet.moves.count)
        }
    }

    @Test func movesAreAssociatedPairs() throws {
        let changeSet = ChangeSet(moves: [.init(from: path(0, 0), to: path(0, 2))])
        let difference = try changeSet.collectionDifference(from: ["a", "b", "c"], to: ["b", "c", "a"])
        #expect(
            Array(difference) == [
                .remove(offset: 0, element: "a", associatedWith: 2),
                .insert(offset: 2, element: "a", associatedWith: 0),
            ])
    }

    @Test func sectionedChangeSetsDoNotConvert() {
        #expect(throws: ChangeSetError.notSingleSection) {
            try ChangeSet(sectionInserts: [1]).collectionDifference(from: [1], to: [1])
        }
        #expect(throws: ChangeSetError.notSingleSection) {
            try ChangeSet(inserts: [path(1, 0)]).collectionDifference(from: [1], to: [1, 2])
        }
    }

    @Test func invalidFlatChangeSetsThrow() {
        #expect(throws: ChangeSetError.invalidIndexPath(path(0, 2), .delete)) {
            try ChangeSet(deletes: [path(0, 2)]).collectionDifference(from: [1, 2], to: [1])
        }
        #expect(throws: ChangeSetError.invalidIndexPath(path(0, 1), .insert)) {
            try ChangeSet(inserts: [path(0, 1)]).collectionDifference(from: [1], to: [1])
        }
        #expect(throws: ChangeSetError.countMismatch(section: 0, expected: 3, actual: 2)) {
            try ChangeSet(inserts: [path(0, 0)]).collectionDifference(from: [1, 2], to: [0, 1])
        }
    }
}
