/// A measured result that is not what the workload must produce: the benchmark fails.
struct ValidationError: Error, CustomStringConvertible {
    /// What was expected and what came instead.
    let description: String
}
