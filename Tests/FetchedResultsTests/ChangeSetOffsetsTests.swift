import Foundation
import SQLiteStoreResults
import Testing

/// Offset translation and merging, as composite data sources use them.
@Suite("ChangeSet offsets and merging")
struct ChangeSetOffsetsTests {
    private let sample = ChangeSet(
        sectionDeletes: [0], sectionInserts: [1], deletes: [path(1, 0)], inserts: [path(0, 2)],
        moves: [.init(from: path(1, 1), to: path(0, 0), isChanged: true)], updates: [path(1, 2)]
    )

    @Test func sectionsShiftOnTheirOwnSide() {
        #expect(
            sample.offsettingSections(old: 2, new: 5)
                == ChangeSet(
                    sectionDeletes: [2], sectionInserts: [6], deletes: [path(3, 0)], inserts: [path(5, 2)],
                    moves: [.init(from: path(3, 1), to: path(5, 0), isChanged: true)], updates: [path(3, 2)]
                ))
        #expect(sample.offsettingSections(by: 0) == sample)
    }

    @Test func rowsShiftOnlyInTheirSection() {
        #expect(
            sample.offsettingRows(old: 10, new: 20, inSection: 1)
                == ChangeSet(
                    sectionDeletes: [0], sectionInserts: [1], deletes: [path(1, 10)], inserts: [path(0, 2)],
                    moves: [.init(from: path(1, 11), to: path(0, 0), isChanged: true)], updates: [path(1, 12)]
                ))
        #expect(sample.offsettingRows(by: 3, inSection: 0).inserts == [path(0, 5)])
    }

    @Test func mergingConcatenatesAndSorts() {
        let merged = ChangeSet(merging: [ChangeSet(deletes: [path(2, 0)]), ChangeSet(deletes: [path(0, 1)], updates: [path(0, 0)])])
        #expect(merged == ChangeSet(deletes: [path(0, 1), path(2, 0)], updates: [path(0, 0)]))
        #expect(ChangeSet(merging: []) == .empty)
    }

    /// Children side by side as sections: their translated change sets merge into the parent's.
    @Test func childSectionsCompose() throws {
        var generator = SnapshotGenerator(random: SeededGenerator(seed: randomizedTestSeed))
        for _ in 0..<1_000 {
            let (first, second) = (generator.snapshot(maxSections: 2), generator.snapshot(maxSections: 2))
            let (firstNew, secondNew) = (generator.edit(first), generator.edit(second))
            let merged = ChangeSet(merging: [
                ChangeSet(from: first, to: firstNew),
                ChangeSet(from: second, to: secondNew)
                    .offsettingSections(old: first.sections.count, new: firstNew.sections.count),
            ])
            let old = SectionedSnapshot(sections: first.sections + second.sections)
            let new = SectionedSnapshot(sections: firstNew.sections + secondNew.sections)
            try #require(try merged.applied(to: old, new: new) == new, "seed \(randomizedTestSeed): \(merged)")
        }
    }

    /// Children stacked in one section: their translated change sets merge into the parent's.
    @Test func childRowsCompose() throws {
        var generator = SnapshotGenerator(random: SeededGenerator(seed: randomizedTestSeed))
        for _ in 0..<1_000 {
            let first = generator.snapshot().sections.flatMap(\.ids)
            let second = generator.snapshot().sections.flatMap(\.ids).map { $0 + 100 }
            let (firstNew, secondNew) = (first.shuffled(using: &generator.random).dropLast(), second.shuffled(using: &generator.random))
            let merged = ChangeSet(merging: [
                ChangeSet(from: .init(ids: first), to: .init(ids: Array(firstNew))),
                ChangeSet(from: .init(ids: second), to: .init(ids: secondNew))
                    .offsettingRows(old: first.count, new: firstNew.count, inSection: 0),
            ])
            let new = SectionedSnapshot(ids: firstNew + secondNew)
            try #require(
                try merged.applied(to: .init(ids: first + second), new: new) == new,
                "seed \(randomizedTestSeed): \(merged)")
        }
    }
}
