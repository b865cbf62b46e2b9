import Foundation
import TestSupport

extension SeededGenerator {
    /// The seed of the change-capture randomized tests when `STORE_TEST_SEED` does not name
    /// one: CI replays the same transactions on every run.
    static let changeCaptureSeed: UInt64 = 20_261_125

    /// A generator for the change-capture randomized tests: from `STORE_TEST_SEED` when it is
    /// a number, from a fresh seed when it is `random` (each test prints the seed it used), and
    /// from `changeCaptureSeed` otherwise.
    static func changeCapture() -> SeededGenerator {
        switch ProcessInfo.processInfo.environment["STORE_TEST_SEED"] {
        case "random": SeededGenerator(seed: .random(in: .min ... .max))
        case let text?: SeededGenerator(seed: UInt64(text) ?? changeCaptureSeed)
        case nil: SeededGenerator(seed: changeCaptureSeed)
        }
    }
}
