import Testing

@testable import SQLiteStoreResults

/// The binary search shared by the LIS and the validation of updates.
@Suite("Diff lower bound")
struct DiffLowerBoundTests {
    @Test func lowerBoundMatchesALinearScan() {
        var random = SeededGenerator(seed: randomizedTestSeed)
        for _ in 0..<1_000 {
            let values = (0..<Int.random(in: 0...12, using: &random)).map { _ in Int.random(in: 0..<10, using: &random) }.sorted()
            let probe = Int.random(in: -1...10, using: &random)
            #expect(values.lowerBound(of: probe) == (values.firstIndex { $0 >= probe } ?? values.count), "\(values) \(probe)")
            #expect(values.containsSorted(probe) == values.contains(probe), "\(values) \(probe)")
        }
    }
}
