/// The SplitMix64 generator: tiny, fast and identical on every platform, so that a seed
/// always yields the same benchmark data.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// Returns a value uniform in `0..<1`, built from the top 53 bits so that it does not
    /// depend on the standard library's floating-point sampling.
    public mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Returns a value uniform in `0..<upperBound`; `upperBound` must be positive.
    public mutating func nextIndex(below upperBound: Int) -> Int {
        Int(next() % UInt64(upperBound))
    }
}
