import Benchmark
import BenchmarkKit

/// `fetchAll` and `fetchPage` over a copy of the seeded database, opened once per benchmark.
/// Returns how many benchmarks it registered.
func registerFetchBenchmarks() -> Int {
    var registered = 0
    for contender in Contenders.fetchers {
        for rows in RowCount.allCases {
            registered += registerFetches(contender, rows: rows)
        }
    }
    return registered
}

private let pageSize = 50
private let pageFetchesPerIteration = 1_000

private func registerFetches<Contender: FetchContender>(_: Contender.Type, rows: RowCount) -> Int {
    let setUp = {
        let directory = try TemporaryDirectory()
        let path = try Fixtures.makeSeededDatabase(rows: rows.rawValue, named: "fetch.sqlite", in: directory)
        return OpenedContender(directory: directory, contender: try Contender(databasePath: path))
    }
    let fetchAll = registerBenchmark(.fetchAll, rows: rows, library: Contender.library, setUp: setUp) { benchmark, opened in
        benchmark.startMeasurement()
        let items = try opened.contender.fetchAllByScore()
        benchmark.stopMeasurement()
        guard items.count == rows.rawValue else {
            throw ValidationError(description: "fetched \(items.count) of \(rows.rawValue) rows")
        }
    }
    let fetchPage = registerBenchmark(.fetchPage, rows: rows, library: Contender.library, setUp: setUp) { benchmark, opened in
        var fetchedRows = 0
        benchmark.startMeasurement()
        for _ in 0..<pageFetchesPerIteration {
            fetchedRows += try opened.contender.fetchPageByScore(limit: pageSize, offset: rows.rawValue / 2).count
        }
        benchmark.stopMeasurement()
        guard fetchedRows == pageSize * pageFetchesPerIteration else {
            throw ValidationError(description: "fetched \(fetchedRows) rows in \(pageFetchesPerIteration) pages")
        }
    }
    return fetchAll + fetchPage
}
