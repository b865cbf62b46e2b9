/// A run that did not go as the benchmark expects: no change set arrived, a push was not
/// stored whole, a device does not hold what was synced.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}
