import BenchmarkKit
import GRDBContender
import RawSQLiteContender
import StoreContender

// The first screen of a live list, all contenders alternating in one process (see
// Benchmarks/README.md):
//
//   swift run -c release --package-path Benchmarks FirstScreen [rows …] [--runs N] [--complete-only] [--order NAME]
//
// For each size, one seeded database (with an index on (category, score) added) is opened by
// SQLiteStore (a FetchedResultsController, default request: performFetch, then object(at:)),
// GRDB (the first value of a ValueObservation of fetchAll) and the C API (the LIMIT 50 query:
// the floor). Each run times, in turn, every contender's first 50 models in each order (by
// score, indexed; sectioned by category; by title, unindexed), SQLiteStore's object far ahead
// in the sectioned order (the last section, before the rest is read), then the complete results:
// SQLiteStore's controller until `waitUntilCurrent()` returns, the read `performFetch()` made
// before issue 27 (every key and object before returning), GRDB's first value, and the C API's
// ordered scan of the columns the controller's index reads. The first run warms up and is not
// counted; after each GRDB measurement the process waits as long again, so that GRDB's
// background work does not land in the next contender's time. Prints medians in milliseconds
// and the ratios. `--complete-only` times the complete results alone (for profiling them, and
// for alternating two builds without the first screens' minutes). `--order score|sectioned|unindexed`
// times that order's first screens and the complete results alone.

let arguments = Array(CommandLine.arguments.dropFirst())
let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 5
let sizes = arguments.compactMap { Int($0) }.filter { $0 >= 1_000 }
let onlyOrder = arguments.firstIndex(of: "--order").flatMap { FirstScreenOrder(rawValue: arguments[$0 + 1]) }
let orders = arguments.contains("--complete-only") ? [] : onlyOrder.map { [$0] } ?? FirstScreenOrder.allCases
let screen = 50

@MainActor
func measure(rows: Int) async throws {
    let directory = try TemporaryDirectory()
    let path = try Fixtures.makeSeededDatabase(rows: rows, named: "first-screen.sqlite", in: directory)
    try SQLiteConnection(path: path).execute(FirstScreenSQL.categoryIndex)
    let store = try await StoreFirstScreen(databasePath: path)
    let grdb = try GRDBFirstScreen(databasePath: path)
    let raw = try RawCFirstScreen(databasePath: path)
    var samples: [String: [Duration]] = [:]
    func time(_ label: String, run: Int, _ body: () async throws -> Int) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let count = try await body()
        let elapsed = clock.now - start
        guard count > 0 else { throw NoRows(workload: label) }
        if run > 0 { samples[label, default: []].append(elapsed) }
        // GRDB's observation goes on in the background after its first value (it starts
        // observing the writer, which may fetch again): let it end before the next contender.
        if label.hasSuffix("GRDB") { try await Task.sleep(for: elapsed) }
    }
    for run in 0...runs {
        for order in orders {
            try await time("\(order) SQLiteStore", run: run) { try await store.firstScreen(count: screen, order: order).count }
            try await time("\(order) GRDB", run: run) { try await grdb.firstScreen(count: screen, order: order).count }
            try await time("\(order) rawC", run: run) { try raw.firstScreen(count: screen, order: order).count }
        }
        // The last of the 8 categories, a row a fortieth of the results in (a sixteenth are in each).
        if orders.contains(.sectioned) {
            try await time("ahead SQLiteStore", run: run) { try store.objectAhead(section: 7, row: rows / 40).id == nil ? 0 : 1 }
        }
        try await time("complete SQLiteStore", run: run) { try await store.completeResults() }
        try await time("complete before27", run: run) { try store.wholeReadBeforeReturning() }
        try await time("complete GRDB", run: run) { try await grdb.completeResults() }
        try await time("complete rawC", run: run) { try raw.completeResults() }
    }
    func median(_ label: String) -> Double {
        let sorted = (samples[label] ?? []).map { Double($0.components.attoseconds) * 1e-15 + Double($0.components.seconds) * 1e3 }.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
    func format(_ value: Double) -> String { value < 10 ? format3(value) : String(Int(value.rounded())) }
    for order in orders.map(\.rawValue) {
        let (store, grdb, raw) = (median("\(order) SQLiteStore"), median("\(order) GRDB"), median("\(order) rawC"))
        print(
            "\(rows)\tfirst 50, \(order)\tSQLiteStore \(format(store)) ms\tGRDB \(format(grdb)) ms\trawC \(format(raw)) ms"
                + "\tStore/GRDB \(format3(store / grdb))\tStore/rawC \(format3(store / raw))")
    }
    if orders.contains(.sectioned) { print("\(rows)\tobject far ahead, sectioned\tSQLiteStore \(format(median("ahead SQLiteStore"))) ms") }
    let (store27, before, grdbAll, scan) = (
        median("complete SQLiteStore"), median("complete before27"), median("complete GRDB"), median("complete rawC")
    )
    print(
        "\(rows)\tcomplete results\tSQLiteStore \(format(store27)) ms\tbefore issue 27 \(format(before)) ms\tGRDB \(format(grdbAll)) ms"
            + "\trawC scan \(format(scan)) ms\tStore/rawC \(format3(store27 / scan))\tStore/before \(format3(store27 / before))")
}

/// A workload that read no rows: the measurement would mean nothing.
struct NoRows: Error {
    let workload: String
}

/// `value` with three decimals.
func format3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

print("rows\tworkload\tmedians of \(runs) runs after a warm-up, alternating")
for rows in sizes.isEmpty ? [10_000, 100_000, 1_000_000] : sizes {
    try await measure(rows: rows)
}
