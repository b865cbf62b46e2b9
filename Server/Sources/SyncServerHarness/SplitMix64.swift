/// A small seeded generator (SplitMix64), so that a seed replays the same operations.
///
/// The root package's `TestSupport.SeededGenerator` is the same algorithm, but that target is
/// not a product (apps would see test code among the library's products), and a package
/// cannot reach another's targets otherwise.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence `seed` fixes.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
