import Benchmark
import BenchmarkKit

/// `observeRelated`: each iteration renames the next list of the script and measures until the
/// consumer holds the change set, at 100k and 1M items. Returns how many benchmarks it registered.
func registerRelatedObserveBenchmarks() -> Int {
    var registered = 0
    for contender in Contenders.relatedLiveQueries {
        for rows in [RowCount.hundredThousand, .million] {
            registered += registerRelatedObserve(contender, rows: rows)
        }
    }
    return registered
}

private func registerRelatedObserve<Contender: RelatedLiveQueryContender>(_: Contender.Type, rows: RowCount) -> Int {
    registerBenchmark(.observeRelated, rows: rows, library: Contender.library) {
        let directory = try TemporaryDirectory()
        let path = try Fixtures.makeRelatedDatabase(rows: rows.rawValue, named: "related.sqlite", in: directory)
        let contender = try await Contender(databasePath: path)
        return LiveQueryState(directory: directory, contender: contender, script: ListRenameScript(seededRows: rows.rawValue))
    } measure: { benchmark, state in
        let rename = state.script.next()
        benchmark.startMeasurement()
        let summary = try await state.contender.commit(rename)
        benchmark.stopMeasurement()
        guard !summary.isEmpty else {
            throw ValidationError(description: "the consumer received an empty change set")
        }
    }
}
