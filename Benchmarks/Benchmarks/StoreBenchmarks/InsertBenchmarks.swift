import Benchmark
import BenchmarkKit

/// `insert` and `notifyOverhead`: the same N generated models inserted in one transaction into
/// a fresh empty database per iteration, without and with one change subscriber. Returns how
/// many benchmarks it registered.
func registerInsertBenchmarks() -> Int {
    var registered = 0
    for contender in Contenders.inserters {
        for rows in RowCount.allCases {
            registered += registerInsert(contender, rows: rows, subscribed: false)
            registered += registerInsert(contender, rows: rows, subscribed: true)
        }
    }
    return registered
}

private func registerInsert<Contender: InsertContender>(_: Contender.Type, rows: RowCount, subscribed: Bool) -> Int {
    registerBenchmark(subscribed ? .notifyOverhead : .insert, rows: rows, library: Contender.library) {
        var generator = ItemGenerator()
        return generator.items(count: rows.rawValue)
    } measure: { benchmark, items in
        let directory = try TemporaryDirectory()
        try measureInsert(Contender.self, of: items, into: directory, subscribed: subscribed, benchmark: benchmark)
    }
}

/// Opens the contender on a new empty database in `directory` and measures one insert of a
/// private copy of `items` (copied before the clock starts, so that the ids land in it).
private func measureInsert<Contender: InsertContender>(
    _: Contender.Type, of items: [Item], into directory: TemporaryDirectory, subscribed: Bool, benchmark: Benchmark
) throws {
    let contender = try Contender(databasePath: Fixtures.makeEmptyDatabase(named: "insert.sqlite", in: directory))
    if subscribed {
        try contender.attachChangeSubscriber()
    }
    var batch = items.map(Contender.Model.init)
    benchmark.startMeasurement()
    try contender.insert(&batch)
    benchmark.stopMeasurement()
    guard batch.allSatisfy({ $0.id != nil }) else {
        throw ValidationError(description: "inserted items lack ids")
    }
    if subscribed, contender.notifiedInsertCount != items.count {
        throw ValidationError(description: "subscriber saw \(contender.notifiedInsertCount) of \(items.count) inserts")
    }
}
