import Benchmark
import BenchmarkKit

/// `firstScreen`, `firstScreenSectioned` and `firstScreenUnindexed`: from creating the live list to its first 50
/// models in hand; `completeResults`: from creating it to holding every row. Over a copy of the
/// seeded database with an index for the sectioned order, opened once per benchmark. Returns
/// how many benchmarks it registered.
func registerFirstScreenBenchmarks() -> Int {
    var registered = 0
    for contender in Contenders.firstScreens {
        for rows in RowCount.allCases {
            registered += registerFirstScreens(contender, rows: rows)
        }
    }
    return registered
}

private let screenRows = 50

private func registerFirstScreens<Contender: FirstScreenContender>(_: Contender.Type, rows: RowCount) -> Int {
    let setUp = {
        let directory = try TemporaryDirectory()
        let path = try Fixtures.makeSeededDatabase(rows: rows.rawValue, named: "first-screen.sqlite", in: directory)
        try SQLiteConnection(path: path).execute(FirstScreenSQL.categoryIndex)
        return OpenedContender(directory: directory, contender: try await Contender(databasePath: path))
    }
    var registered = 0
    let orders: [(Workload, FirstScreenOrder)] = [
        (.firstScreen, .score), (.firstScreenSectioned, .sectioned), (.firstScreenUnindexed, .unindexed),
    ]
    for (workload, order) in orders {
        registered += registerBenchmark(workload, rows: rows, library: Contender.library, setUp: setUp) { benchmark, opened in
            benchmark.startMeasurement()
            let items = try await opened.contender.firstScreen(count: screenRows, order: order)
            benchmark.stopMeasurement()
            guard items.count == screenRows else {
                throw ValidationError(description: "the first screen holds \(items.count) of \(screenRows) rows")
            }
        }
    }
    registered += registerBenchmark(.completeResults, rows: rows, library: Contender.library, setUp: setUp) { benchmark, opened in
        benchmark.startMeasurement()
        let count = try await opened.contender.completeResults()
        benchmark.stopMeasurement()
        // The seeded generator flags about half of the rows.
        guard count > rows.rawValue / 3 else {
            throw ValidationError(description: "the complete results hold \(count) rows")
        }
    }
    return registered
}
