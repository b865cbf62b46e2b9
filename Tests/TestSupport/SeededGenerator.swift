import Foundation
import SQLiteStoreSeededRandom

/// A reproducible random number generator: `SplitMix64`, seeded from the environment.
///
/// Each run draws a fresh seed unless `STORE_TEST_SEED` is set; tests print the seed in
/// their failure messages so that `STORE_TEST_SEED=<seed> swift test …` replays a failure.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The seed this generator started from.
    public let seed: UInt64
    private var generator: SplitMix64

    /// A generator that starts from `seed`: `STORE_TEST_SEED`, or a random one, by default.
    public init(seed: UInt64 = SeededGenerator.seedFromEnvironment()) {
        self.seed = seed
        generator = SplitMix64(seed: seed)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 { generator.next() }

    /// `STORE_TEST_SEED` if set, a random seed otherwise.
    public static func seedFromEnvironment() -> UInt64 {
        ProcessInfo.processInfo.environment["STORE_TEST_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: .min ... .max)
    }
}
