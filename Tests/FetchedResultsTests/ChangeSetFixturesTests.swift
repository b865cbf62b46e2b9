// Fixtures shared by the ChangeSet and Diff tests: shorthands, a seeded
// generator of random snapshots, and a checker of change sets that is
// independent of the library's own validation.
import Foundation
import SQLiteStoreResults

/// The index path of `row` in `section`.
func path(_ section: Int, _ row: Int) -> IndexPath {
    IndexPath(row: row, section: section)
}

/// A snapshot of integer IDs from (name, ids) pairs.
func snapshot(_ sections: (String?, [Int])...) -> SectionedSnapshot<Int> {
    SectionedSnapshot(sections: sections.map { .init(name: $0.0, ids: $0.1) })
}

/// The base seed of the randomized tests; set `CHANGESET_SEED` to replay another.
let randomizedTestSeed =
    ProcessInfo.processInfo.environment["CHANGESET_SEED"].flatMap { UInt64($0) }
    ?? 0x5EED_C4A6_E5E7

/// Random snapshots of integer IDs over a small universe, so that old and new overlap.
struct SnapshotGenerator {
    var random: SeededGenerator
    let universe = 0..<40
    let names: [String?] = ["a", "b", "c", "d", "e", nil]

    /// Unique IDs spread over up to `maxSections` sections with random (possibly repeated) names.
    mutating func snapshot(maxSections: Int = 4) -> SectionedSnapshot<Int> {
        let ids = Array(universe.shuffled(using: &random).prefix(Int.random(in: 0...universe.count, using: &random)))
        return split(ids, into: Int.random(in: 0...maxSections, using: &random))
    }

    /// IDs drawn with replacement from a tiny universe: many repeated IDs.
    mutating func snapshotWithRepeats() -> SectionedSnapshot<Int> {
        let ids = (0..<Int.random(in: 0...12, using: &random)).map { _ in Int.random(in: 0..<5, using: &random) }
        return split(ids, into: Int.random(in: 0...3, using: &random))
    }

    /// A few random edits of `old`: row deletes, inserts and moves, section deletes, inserts and swaps.
    mutating func edit(_ old: SectionedSnapshot<Int>) -> SectionedSnapshot<Int> {
        var sections = old.sections
        var fresh = Set(universe).subtracting(sections.flatMap(\.ids)).shuffled(using: &random)
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                if let s = randomSection(sections), !sections[s].ids.isEmpty {
                    sections[s].ids.remove(at: Int.random(in: sections[s].ids.indices, using: &random))
                }
            case 1:
                if let s = randomSection(sections), let id = fresh.popLast() {
                    sections[s].ids.insert(id, at: Int.random(in: 0...sections[s].ids.count, using: &random))
                }
            case 2: moveRandomRow(in: &sections)
            case 3: if let s = randomSection(sections) { sections.remove(at: s) }
            case 4:
                sections.insert(
                    .init(name: names.randomElement(using: &random) ?? nil, ids: Array(fresh.suffix(3))),
                    at: Int.random(in: 0...sections.count, using: &random))
                fresh.removeLast(min(3, fresh.count))
            default: if let s = randomSection(sections), let t = randomSection(sections) { sections.swapAt(s, t) }
            }
        }
        return SectionedSnapshot(sections: sections)
    }

    /// Moves one random row to a different position, possibly in another section.
    /// Returns whether a row moved.
    @discardableResult
    mutating func moveRandomRow(in sections: inout [SectionedSnapshot<Int>.Section]) -> Bool {
        let filled = sections.indices.filter { !sections[$0].ids.isEmpty }
        guard let from = filled.randomElement(using: &random), let to = randomSection(sections) else { return false }
        let row = Int.random(in: sections[from].ids.indices, using: &random)
        let id = sections[from].ids.remove(at: row)
        let destinations = (0...sections[to].ids.count).filter { to != from || $0 != row }
        guard let destination = destinations.randomElement(using: &random) else {
            sections[from].ids.insert(id, at: row)
            return false
        }
        sections[to].ids.insert(id, at: destination)
        return true
    }

    /// A random subset of the universe, each ID with probability 1/5.
    mutating func updatedIDs() -> Set<Int> {
        Set(universe.filter { _ in Int.random(in: 0..<5, using: &random) == 0 })
    }

    private mutating func randomSection(_ sections: [SectionedSnapshot<Int>.Section]) -> Int? {
        sections.indices.randomElement(using: &random)
    }

    private mutating func split(_ ids: [Int], into sectionCount: Int) -> SectionedSnapshot<Int> {
        guard sectionCount > 0 else { return SectionedSnapshot() }
        let cuts = ((1..<sectionCount).map { _ in Int.random(in: 0...ids.count, using: &random) } + [0, ids.count]).sorted()
        return SectionedSnapshot(
            sections: zip(cuts, cuts.dropFirst()).map { start, end in
                .init(name: names.randomElement(using: &random) ?? nil, ids: Array(ids[start..<end]))
            })
    }
}
