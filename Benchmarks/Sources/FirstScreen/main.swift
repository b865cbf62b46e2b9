import BenchmarkKit
import Foundation
import GRDBContender
import RawSQLiteContender
import StoreContender

// The first screen of a live list, all contenders alternating in one process (see
// Benchmarks/README.md):
//
//   swift run -c release --package-path Benchmarks FirstScreen [rows …] [--runs N] [--complete-only] [--order NAME]
//
// For each size, one seeded database (with an index on (category, score) added) is opened by
// SQLiteStore (a FetchedResultsController, default request: performFetch, then object(at:);
// `SQLiteStore` with a Codable model, `SQLiteStoreMacro` with the README's `@StoreModel` one), GRDB (the first value of a ValueObservation of fetchAll) and the C API (the LIMIT 50 query:
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
// times that order's first screens and the complete results alone. `--contender NAME`
// (SQLiteStore, SQLiteStoreMacro, GRDB, rawC, before27) times that contender alone, for `perf stat` or
// `perf record` of one. Beside each median wall time it prints two CPU times over the same
// span, which move less than wall time when other processes share the cores: the process's
// (user and system, every thread: the engine's background read included; the figure for the
// complete results) and the calling thread's (the main thread, which reads the first page: the
// figure for a first screen, since the process's then counts the background read going on
// beside it; GRDB's work runs on its own queues, so its caller's figure means nothing).
// `--memory` measures where a list over every row holds its memory instead (MemoryProbe.swift).

let arguments = Array(CommandLine.arguments.dropFirst())
let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 5
let sizes = arguments.compactMap { Int($0) }.filter { $0 >= 1_000 }
let onlyOrder = arguments.firstIndex(of: "--order").flatMap { FirstScreenOrder(rawValue: arguments[$0 + 1]) }
let orders = arguments.contains("--complete-only") ? [] : onlyOrder.map { [$0] } ?? FirstScreenOrder.allCases
let onlyContender = arguments.firstIndex(of: "--contender").map { arguments[$0 + 1] }
let screen = 50

/// What a sample measures.
enum Measure: CaseIterable {
    /// Wall time.
    case wall
    /// CPU time (user and system) of every thread of the process.
    case processCPU
    /// CPU time of the calling thread.
    case callerCPU

    /// How the printed line names the measure.
    var label: String {
        switch self {
        case .wall: ""
        case .processCPU: ", process CPU"
        case .callerCPU: ", caller's CPU"
        }
    }

    /// The reading of this clock now.
    func now() -> Duration {
        switch self {
        case .wall: return wallOrigin.duration(to: .now)
        case .processCPU: return Self.cpuTime(CLOCK_PROCESS_CPUTIME_ID)
        case .callerCPU: return Self.cpuTime(CLOCK_THREAD_CPUTIME_ID)
        }
    }

    private static func cpuTime(_ clock: clockid_t) -> Duration {
        var time = timespec()
        clock_gettime(clock, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}

/// Where wall readings start.
let wallOrigin = ContinuousClock.now

@MainActor
func measure(rows: Int) async throws {
    let directory = try TemporaryDirectory()
    let path = try Fixtures.makeSeededDatabase(rows: rows, named: "first-screen.sqlite", in: directory)
    try SQLiteConnection(path: path).execute(FirstScreenSQL.categoryIndex)
    // The store opens last: GRDB's pool commits while it opens, which a store open before it
    // saw as another connection's change, re-reading the whole results of the first
    // controller beside the next runs.
    let grdb = try GRDBFirstScreen(databasePath: path)
    let raw = try RawCFirstScreen(databasePath: path)
    let store = try await StoreFirstScreen<Item>(databasePath: path)
    let storeMacro = try await StoreFirstScreen<MacroItem>(databasePath: path)
    var samples: [String: [Measure: [Duration]]] = [:]
    func time(_ label: String, run: Int, _ body: () async throws -> Int) async throws {
        if let onlyContender, !label.hasSuffix(" \(onlyContender)") { return }
        let start = Measure.allCases.map { $0.now() }
        let count = try await body()
        let elapsed = zip(Measure.allCases, start).map { $0.now() - $1 }
        guard count > 0 else { throw NoRows(workload: label) }
        if run > 0 {
            for (measure, duration) in zip(Measure.allCases, elapsed) {
                samples[label, default: [:]][measure, default: []].append(duration)
            }
        }
        // GRDB's observation goes on in the background after its first value (it starts
        // observing the writer, which may fetch again): let it end before the next contender.
        if label.hasSuffix("GRDB") { try await Task.sleep(for: elapsed[0]) }
    }
    for run in 0...runs {
        for order in orders {
            try await time("\(order) SQLiteStore", run: run) { try await store.firstScreen(count: screen, order: order).count }
            try await time("\(order) SQLiteStoreMacro", run: run) {
                try await storeMacro.firstScreen(count: screen, order: order).count
            }
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
    func median(_ label: String, _ measure: Measure = .wall) -> Double {
        let sorted = (samples[label]?[measure] ?? []).map(\.inMilliseconds).sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
    func format(_ value: Double) -> String { !value.isFinite || value < 10 ? format3(value) : String(Int(value.rounded())) }
    for order in orders.map(\.rawValue) {
        for measure in Measure.allCases {
            let (store, macro, grdb, raw) = (
                median("\(order) SQLiteStore", measure), median("\(order) SQLiteStoreMacro", measure),
                median("\(order) GRDB", measure), median("\(order) rawC", measure)
            )
            print(
                "\(rows)\tfirst 50, \(order)\(measure.label)\tSQLiteStore \(format(store)) ms\tSQLiteStoreMacro \(format(macro)) ms"
                    + "\tGRDB \(format(grdb)) ms\trawC \(format(raw)) ms\tStore/GRDB \(format3(store / grdb))"
                    + "\tStore/rawC \(format3(store / raw))\tMacro/rawC \(format3(macro / raw))")
        }
    }
    if orders.contains(.sectioned) { print("\(rows)\tobject far ahead, sectioned\tSQLiteStore \(format(median("ahead SQLiteStore"))) ms") }
    for measure in [Measure.wall, .processCPU] {
        let (store27, before, grdbAll, scan) = (
            median("complete SQLiteStore", measure), median("complete before27", measure), median("complete GRDB", measure),
            median("complete rawC", measure)
        )
        print(
            "\(rows)\tcomplete results\(measure.label)\tSQLiteStore \(format(store27)) ms\tbefore issue 27 \(format(before)) ms"
                + "\tGRDB \(format(grdbAll)) ms\trawC scan \(format(scan)) ms\tStore/rawC \(format3(store27 / scan))"
                + "\tStore/before \(format3(store27 / before))")
    }
}

/// A workload that read no rows: the measurement would mean nothing.
struct NoRows: Error {
    let workload: String
}

/// `value` with three decimals.
func format3(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    // A caller's CPU time can come out negative when the caller resumed on another thread.
    guard value >= 0 else { return "-" + format3(-value) }
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

if arguments.contains("--memory") {
    for rows in sizes.isEmpty ? [1_000_000] : sizes { try await measureMemory(rows: rows) }
} else {
    print("rows\tworkload\tmedians of \(runs) runs after a warm-up, alternating")
    for rows in sizes.isEmpty ? [10_000, 100_000, 1_000_000] : sizes {
        try await measure(rows: rows)
    }
}
