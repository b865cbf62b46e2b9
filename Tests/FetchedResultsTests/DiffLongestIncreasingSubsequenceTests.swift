import Testing

@testable import SQLiteStoreResults

/// The patience-sorting LIS that decides which rows stay in place.
@Suite("Diff longest increasing subsequence")
struct DiffLongestIncreasingSubsequenceTests {
    /// The length of a longest strictly increasing subsequence, by the quadratic textbook method.
    private func referenceLength(_ values: [Int]) -> Int {
        var lengths = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { lengths[i] = max(lengths[i], lengths[j] + 1) }
        }
        return lengths.max() ?? 0
    }

    @Test func examples() {
        #expect(longestIncreasingSubsequence([]) == [])
        #expect(longestIncreasingSubsequence([5]) == [true])
        #expect(longestIncreasingSubsequence([0, 1, 2]) == [true, true, true])
        #expect(longestIncreasingSubsequence([3, 0, 1, 2]) == [false, true, true, true])
        #expect(longestIncreasingSubsequence([2, 2, 2]).filter { $0 }.count == 1)
    }

    @Test func matchesTheQuadraticReference() {
        var random = SeededGenerator(seed: randomizedTestSeed)
        for _ in 0..<3_000 {
            let values = (0..<Int.random(in: 0...25, using: &random)).map { _ in Int.random(in: 0..<20, using: &random) }
            let members = longestIncreasingSubsequence(values)
            let chosen = zip(values, members).filter(\.1).map(\.0)
            #expect(zip(chosen, chosen.dropFirst()).allSatisfy { $0 < $1 }, "seed \(randomizedTestSeed): \(values)")
            #expect(chosen.count == referenceLength(values), "seed \(randomizedTestSeed): \(values)")
        }
    }
}
