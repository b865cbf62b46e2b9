import Benchmark
import BenchmarkKit
import StoreContender

/// `frcMemory`: peak resident memory while a list over all N rows (ordered by score, batch
/// size 100) is loaded and held; `frcMemoryText` and `frcMemoryLongText` the same for
/// SQLiteStore's controller ordered by a text key (short, or longer than 16 bytes) and an
/// integer key. Returns how many benchmarks it registered.
func registerMemoryBenchmarks() -> Int {
    var registered = 0
    for rows in RowCount.allCases {
        for contender in Contenders.resultsHolders {
            registered += registerMemory(contender, rows: rows)
        }
        for longText in [false, true] {
            registered += registerMemory(longText ? .frcMemoryLongText : .frcMemoryText, StoreResultsHolder.self, rows: rows) {
                try await $0.loadTextKeyedResults(batchSize: batchSize, longText: longText)
            }
        }
    }
    return registered
}

private let batchSize = 100

/// How long the loaded list is held before the measurement stops: resident memory is sampled
/// every 10 ms, and a 10,000-row list loads faster than that.
private let holdTime = Duration.milliseconds(100)

private func registerMemory<Contender: ResultsMemoryContender>(_: Contender.Type, rows: RowCount) -> Int {
    registerMemory(.frcMemory, Contender.self, rows: rows) { try await $0.loadResults(batchSize: batchSize) }
}

private func registerMemory<Contender: ResultsMemoryContender>(
    _ workload: Workload, _: Contender.Type, rows: RowCount,
    load: @escaping (Contender) async throws -> Contender.Results
) -> Int {
    registerBenchmark(workload, rows: rows, library: Contender.library) {
        let directory = try TemporaryDirectory()
        let path = try Fixtures.makeSeededDatabase(rows: rows.rawValue, named: "memory.sqlite", in: directory)
        return OpenedContender(directory: directory, contender: try await Contender(databasePath: path))
    } measure: { benchmark, opened in
        benchmark.startMeasurement()
        let results = try await load(opened.contender)
        try await Task.sleep(for: holdTime)
        benchmark.stopMeasurement()
        let count = opened.contender.rowCount(of: results)
        guard count == rows.rawValue else {
            throw ValidationError(description: "the list holds \(count) of \(rows.rawValue) rows")
        }
    }
}
