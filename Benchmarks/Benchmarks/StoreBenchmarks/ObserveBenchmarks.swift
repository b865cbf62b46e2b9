import Benchmark
import BenchmarkKit

/// The observe workloads: each iteration commits the next change of the workload's script and
/// measures until the consumer holds the change set. Returns how many benchmarks it registered.
func registerObserveBenchmarks() -> Int {
    let scripts: [(Workload, ChangeScript.Kind)] = [
        (.observeUpdate, .updateOne),
        (.observeInsert, .insertOne),
        (.observeDelete, .deleteOne),
        (.observeBulk, .updateMany(count: 1_000)),
    ]
    var registered = 0
    for contender in Contenders.liveQueries {
        for (workload, kind) in scripts {
            for rows in RowCount.allCases {
                registered += registerObserve(contender, workload: workload, kind: kind, rows: rows)
            }
        }
    }
    return registered
}

/// A live query over its own copy of a seeded database, and the changes still to commit
/// (a `ChangeScript`, or the `ListRenameScript` of `observeRelated`).
final class LiveQueryState<Contender, Script> {
    let directory: TemporaryDirectory
    let contender: Contender
    var script: Script

    init(directory: TemporaryDirectory, contender: Contender, script: Script) {
        self.directory = directory
        self.contender = contender
        self.script = script
    }
}

private func registerObserve<Contender: LiveQueryContender>(
    _: Contender.Type, workload: Workload, kind: ChangeScript.Kind, rows: RowCount
) -> Int {
    registerBenchmark(workload, rows: rows, library: Contender.library) {
        let directory = try TemporaryDirectory()
        let path = try Fixtures.makeSeededDatabase(rows: rows.rawValue, named: "observe.sqlite", in: directory)
        let contender = try await Contender(databasePath: path)
        return LiveQueryState(
            directory: directory, contender: contender, script: ChangeScript(kind: kind, seededRows: rows.rawValue))
    } measure: { benchmark, state in
        let change = state.script.next()
        benchmark.startMeasurement()
        let summary = try await state.contender.commit(change)
        benchmark.stopMeasurement()
        guard !summary.isEmpty else {
            throw ValidationError(description: "the consumer received an empty change set")
        }
    }
}
