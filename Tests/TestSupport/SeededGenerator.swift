import Foundation

/// A reproducible random number generator (SplitMix64).
///
/// Each run draws a fresh seed unless `STORE_TEST_SEED` is set; tests print the seed in
/// their failure messages so that `STORE_TEST_SEED=<seed> swift test …` replays a failure.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64 = SeededGenerator.seedFromEnvironment()) {
        self.seed = seed
        self.state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `STORE_TEST_SEED` if set, a random seed otherwise.
    public static func seedFromEnvironment() -> UInt64 {
        ProcessInfo.processInfo.environment["STORE_TEST_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: .min ... .max)
    }
}
