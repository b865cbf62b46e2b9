import Foundation

/// The seed and length of one run of a randomized suite: `FRC_SEED` replays a seed (each run
/// draws a fresh one otherwise), and an environment variable of the suite's own sets the number
/// of transactions. The seed is printed, so that a failure in CI can be replayed.
///
/// A suite with a `fixedSeed` runs that seed when neither variable is set (a brief, repeatable
/// run for CI), and a fresh one when the suite's variable asks for a longer run.
struct RandomizedRun {
    let seed: UInt64
    let transactions: Int

    init(_ suite: String, transactionsFrom variable: String, default count: Int, fixedSeed: UInt64? = nil) {
        let environment = ProcessInfo.processInfo.environment
        let length = environment[variable].flatMap { Int($0) }
        seed =
            environment["FRC_SEED"].flatMap { UInt64($0) } ?? (length == nil ? fixedSeed : nil) ?? UInt64.random(in: 0...UInt64.max)
        transactions = length ?? count
        print("\(suite) seed: \(seed) (replay with FRC_SEED=\(seed))")
    }

    /// The generator the run's statements come from.
    var random: SeededGenerator { SeededGenerator(seed: seed) }
}
