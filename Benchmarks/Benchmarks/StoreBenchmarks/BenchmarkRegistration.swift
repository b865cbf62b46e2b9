import Benchmark
import BenchmarkKit

/// Registers `workload/rows/library` unless `BenchmarkPlan` skips it. `setUp` prepares the
/// state before the first iteration and is not measured; the state is released after the
/// last iteration, which removes its temporary files. `measure` runs once per iteration and
/// brackets what it measures with `startMeasurement()` and `stopMeasurement()`.
/// Returns 1 when the benchmark was registered, 0 when it is skipped.
func registerBenchmark<State>(
    _ workload: Workload,
    rows: RowCount,
    library: ContenderLibrary,
    setUp: @escaping () async throws -> State,
    measure: @escaping (Benchmark, State) async throws -> Void
) -> Int {
    guard let configuration = BenchmarkPlan.configuration(workload, rows, library) else { return 0 }
    let holder = StateHolder<State>()
    Benchmark("\(workload.rawValue)/\(rows.label)/\(library.rawValue)", configuration: configuration) { benchmark in
        guard let state = holder.state else {
            benchmark.error("set-up did not run")
            return
        }
        do {
            try await measure(benchmark, state)
        } catch {
            benchmark.error(String(describing: error))
        }
    } setup: {
        holder.state = try await setUp()
    } teardown: {
        holder.state = nil
    }
    return 1
}

/// The state of one benchmark between its set-up and its teardown.
private final class StateHolder<State> {
    var state: State?
}
