import SQLiteStoreSeededRandom

extension SplitMix64 {
    /// Returns a value uniform in `0..<1`, built from the top 53 bits so that it does not
    /// depend on the standard library's floating-point sampling.
    mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Returns a value uniform in `0..<upperBound`; `upperBound` must be positive.
    mutating func nextIndex(below upperBound: Int) -> Int {
        Int(next() % UInt64(upperBound))
    }
}
