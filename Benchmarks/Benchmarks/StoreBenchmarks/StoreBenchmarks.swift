/// Registers every benchmark and returns how many there are; the runner that
/// package-benchmark's plugin generates calls it.
///
/// Each benchmark is named `workload/rows/library`, e.g. `fetchAll/100k/GRDB`, and runs in a
/// process of its own. `BenchmarkPlan` says which combinations run, and how long.
func benchmarks() -> Int {
    registerInsertBenchmarks() + registerFetchBenchmarks() + registerObserveBenchmarks() + registerRelatedObserveBenchmarks()
        + registerMemoryBenchmarks() + registerFirstScreenBenchmarks()
}
