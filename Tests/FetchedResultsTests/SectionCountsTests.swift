import Testing

@testable import SQLiteStoreResults

/// The section counts against a plain array: rows before a section, the section of a row,
/// each count and the total, through growth past many blocks (splits), count changes to and
/// from zero, and shrinking to nothing (emptied blocks), and when built at once.
@Suite struct SectionCountsTests {
    @Test func matchesAnArrayOfCounts() {
        var random = SeededGenerator()
        var counts = SectionCounts()
        var model: [Int] = []
        // Grow to several hundred sections (blocks split), then shrink to none (blocks emptied).
        for (phase, steps) in [(0, 3_000), (1, 3_000)] {
            for step in 0..<steps {
                let growing = phase == 0
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4 where growing || model.isEmpty:
                    let section = Int.random(in: 0...model.count, using: &random)
                    let rows = Int.random(in: 0...9, using: &random)
                    counts.insert(rows, at: section)
                    model.insert(rows, at: section)
                case 4..<7 where !model.isEmpty:
                    let section = Int.random(in: 0..<model.count, using: &random)
                    let delta = Int.random(in: -model[section]...5, using: &random)
                    counts.add(delta, at: section)
                    model[section] += delta
                default:
                    guard !model.isEmpty, !growing || Bool.random(using: &random) else { continue }
                    let section = Int.random(in: 0..<model.count, using: &random)
                    counts.remove(at: section)
                    model.remove(at: section)
                }
                if step % 50 == 0 {
                    check(counts, against: model, "seed \(random.seed), phase \(phase), step \(step)")
                    check(SectionCounts(model), against: model, "built at once: seed \(random.seed), step \(step)")
                }
            }
        }
        check(counts, against: model, "at the end: seed \(random.seed)")
    }

    @Test("A copy changed in one section shares every block but that one")
    func copiesShareUnchangedBlocks() {
        let original = SectionCounts(Array(repeating: 3, count: 10_000))
        var copy = original
        copy.add(1, at: 5_000)
        var shared = Set<UInt>()
        original.forEachBuffer { address, _ in shared.insert(address) }
        var copied = 0
        copy.forEachBuffer { address, _ in if !shared.contains(address) { copied += 1 } }
        // The table of blocks, the changed block and the block row totals' two arrays.
        #expect(copied <= 4)
        #expect(copy[5_000] == 4 && original[5_000] == 3 && copy.total == original.total + 1)
    }

    private func check(_ counts: SectionCounts, against model: [Int], _ note: Comment) {
        #expect(counts.count == model.count, note)
        #expect(counts.total == model.reduce(0, +), note)
        #expect(counts.all == model, note)
        var before = 0
        for (section, rows) in model.enumerated() {
            #expect(counts[section] == rows, note)
            #expect(counts.rowsBefore(section) == before, note)
            if rows > 0 {
                #expect(counts.locate(before).map { [$0.section, $0.offset] } == [section, 0], note)
                #expect(counts.locate(before + rows - 1).map { [$0.section, $0.offset] } == [section, rows - 1], note)
            }
            before += rows
        }
        #expect(counts.rowsBefore(model.count) == before, note)
        #expect(counts.locate(before) == nil, note)
        #expect(counts.locate(-1) == nil, note)
    }
}
