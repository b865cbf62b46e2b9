import Testing

@testable import SQLiteStoreResults

/// The counted runs against a plain array of counts: rows before a run, the run of a
/// position and the total, after appends, count changes, insertions and removals of runs,
/// and when built at once from the array.
@Suite struct PrefixCountsTests {
    @Test func matchesAnArrayOfCounts() {
        var random = SeededGenerator()
        var counts = PrefixCounts()
        var model: [Int] = []
        for step in 0..<2_000 {
            let count = Int.random(in: 1...9, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                counts.append(count)
                model.append(count)
            case 1 where !model.isEmpty:
                let chunk = Int.random(in: 0..<model.count, using: &random)
                let delta = Int.random(in: (1 - model[chunk])...5, using: &random)
                counts.add(delta, at: chunk)
                model[chunk] += delta
            case 2:
                let chunk = Int.random(in: 0...model.count, using: &random)
                counts.insert(count, at: chunk)
                model.insert(count, at: chunk)
            default:
                guard !model.isEmpty else { continue }
                let chunk = Int.random(in: 0..<model.count, using: &random)
                counts.remove(at: chunk)
                model.remove(at: chunk)
            }
            if step % 16 == 0 {
                check(counts, against: model, "seed \(random.seed), step \(step)")
                check(PrefixCounts(model), against: model, "built at once: seed \(random.seed), step \(step)")
            }
        }
    }

    private func check(_ counts: PrefixCounts, against model: [Int], _ note: Comment) {
        #expect(counts.total == model.reduce(0, +), note)
        #expect(counts.counts == model, note)
        var before = 0
        for (chunk, size) in model.enumerated() {
            #expect(counts.rowsBefore(chunk) == before, note)
            #expect(counts.locate(before)! == (chunk, 0), note)
            #expect(counts.locate(before + size - 1)! == (chunk, size - 1), note)
            before += size
        }
        #expect(counts.locate(before) == nil, note)
        #expect(counts.locate(-1) == nil, note)
    }
}
