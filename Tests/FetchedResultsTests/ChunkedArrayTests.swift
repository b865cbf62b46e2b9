import TestSupport
import Testing

@testable import SQLiteStoreResults

/// The chunked array against a plain array: the same elements in the same order after
/// random appends, insertions, removals and replacements, across chunk splits and removals;
/// and a copy keeps its elements while the original changes.
@Suite struct ChunkedArrayTests {
    @Test func matchesAnArray() {
        var random = SeededGenerator()
        var chunked = ChunkedArray<Int>()
        var model: [Int] = []
        var copies: [(ChunkedArray<Int>, [Int])] = []
        for step in 0..<3_000 {
            let value = Int.random(in: 0..<1_000_000, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                chunked.append(value)
                model.append(value)
            case 1, 2:
                let position = Int.random(in: 0...model.count, using: &random)
                chunked.insert(value, at: position)
                model.insert(value, at: position)
            case 3 where !model.isEmpty:
                let position = Int.random(in: 0..<model.count, using: &random)
                #expect(chunked.remove(at: position) == model.remove(at: position))
            default:
                guard !model.isEmpty else { continue }
                let position = Int.random(in: 0..<model.count, using: &random)
                chunked[position] = value
                model[position] = value
            }
            if step % 100 == 0 { copies.append((chunked, model)) }
        }
        #expect(Array(chunked) == model, "seed \(random.seed)")
        #expect(model.count > 4 * ChunkedArray<Int>.maxChunk, "enough elements for several chunks")
        for (copy, expected) in copies { #expect(Array(copy) == expected, "seed \(random.seed)") }
    }
}
