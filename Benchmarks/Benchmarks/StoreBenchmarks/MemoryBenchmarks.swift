import Benchmark
import BenchmarkKit

/// `frcMemory`: peak resident memory while a list over all N rows (ordered by score, batch
/// size 100) is loaded and held. Returns how many benchmarks it registered.
func registerMemoryBenchmarks() -> Int {
    var registered = 0
    for contender in Contenders.resultsHolders {
        for rows in RowCount.allCases {
            registered += registerMemory(contender, rows: rows)
        }
    }
    return registered
}

private let batchSize = 100

/// How long the loaded list is held before the measurement stops: resident memory is sampled
/// every 10 ms, and a 10,000-row list loads faster than that.
private let holdTime = Duration.milliseconds(100)

private func registerMemory<Contender: ResultsMemoryContender>(_: Contender.Type, rows: RowCount) -> Int {
    registerBenchmark(.frcMemory, rows: rows, library: Contender.library) {
        let directory = try TemporaryDirectory()
        let path = try Fixtures.makeSeededDatabase(rows: rows.rawValue, named: "memory.sqlite", in: directory)
        return OpenedContender(directory: directory, contender: try await Contender(databasePath: path))
    } measure: { benchmark, opened in
        benchmark.startMeasurement()
        let results = try await opened.contender.loadResults(batchSize: batchSize)
        try await Task.sleep(for: holdTime)
        benchmark.stopMeasurement()
        let count = opened.contender.rowCount(of: results)
        guard count == rows.rawValue else {
            throw ValidationError(description: "the list holds \(count) of \(rows.rawValue) rows")
        }
    }
}
