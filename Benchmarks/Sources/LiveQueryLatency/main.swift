import BenchmarkKit
import CSQLiteBench
import Foundation
import RawSQLiteContender
import SQLiteStoreCore
import StoreContender

// Time from before `store.write` to a consumer on the main actor holding the change set,
// measured as an app would, over many iterations (see Benchmarks/README.md):
//
//   swift run -c release --package-path Benchmarks LiveQueryLatency [rows …] [--iterations N]
//       [--only workload] [--consumer stream|keeping|live] [--runloop]
//
// Each iteration commits one change through the store, then the same change with the raw C
// API on a copy of the database without any observer (SQLite's share), so that the two are
// paired. For each size and observe workload it prints the median and 90th percentile of: the
// receipt (write start to consumer), `store.write` alone (until it returned), the raw C write,
// and the paired difference receipt − raw C write (the library's part); plus the first,
// unmeasured iteration's receipt. Times in milliseconds. Workloads: `update`, `insert`,
// `delete` and `bulk` (1,000 rows) on `flag = 1 ORDER BY score`; `related` renames a list of
// 100 items under a query ordered and sectioned by the list's name; `included` renames a list
// of 100 items under a query ordered by score whose rows include their list; `counted` adds
// one flagged item to a list under a query of the lists ordered by their number of flagged
// items (rows / 100 lists); `filtered` does the same under that query filtered by the lists'
// items (`items.any()`).

let arguments = LatencyArguments(CommandLine.arguments.dropFirst())
Task { @MainActor in
    do {
        try await runWorkloads(arguments)
        exit(0)
    } catch {
        print("LiveQueryLatency failed: \(error)")
        exit(1)
    }
}
if arguments.runsRunLoop {
    while RunLoop.main.run(mode: .default, before: .distantFuture) {}
    print("RunLoop.main returned: it has no input source")
    exit(2)
}
dispatchMain()

@MainActor
func runWorkloads(_ arguments: LatencyArguments) async throws {
    print("consumer: \(arguments.consumer.rawValue), main thread: \(arguments.runsRunLoop ? "RunLoop.main" : "dispatchMain")")
    print(
        "rows     workload  iterations   receipt p50   p90   store.write p50   p90   rawC write p50   p90"
            + "   receipt-rawC p50   p90   first")
    for rows in arguments.rows {
        for workload in arguments.workloads {
            let iterations = workload.name == "bulk" ? max(1, arguments.iterations / 10) : arguments.iterations
            let directory = try TemporaryDirectory()
            let run = LatencyRun(iterations: iterations, consumer: arguments.consumer)
            let samples =
                switch workload.kind {
                case .items(let kind): try await run.measureItems(kind, rows: rows, in: directory)
                case .listRename(let included):
                    try await run.measureRenames(
                        rows: rows, request: included ? IncludedListQuery.request : StoreRelatedLiveQuery.request, in: directory)
                case .countedChildInsert(let filtered):
                    try await run.measureChildInserts(
                        rows: rows, request: filtered ? CountedListQuery.filteredRequest : CountedListQuery.request, in: directory)
                }
            let store = samples.measured.map(\.store)
            let libraryPart = samples.measured.map { $0.store.receipt - $0.rawWrite }
            print(
                "\(rows)\t \(workload.name)\t\(iterations)\t\(LatencySummary(store.map(\.receipt)))\t"
                    + "\(LatencySummary(store.map(\.write)))\t\(LatencySummary(samples.measured.map(\.rawWrite)))\t"
                    + "\(LatencySummary(libraryPart))\t"
                    + LatencySummary.format(samples.first.store.receipt.inMilliseconds))
        }
    }
}

/// One change through the store and the same change through the C API.
struct PairedSample {
    var store: LatencySample
    var rawWrite: Duration
}

/// The first, unmeasured pair and the measured ones.
typealias PairedSamples = (first: PairedSample, measured: [PairedSample])

/// One workload at one size: each change through the store, then through the C API.
@MainActor
struct LatencyRun {
    let iterations: Int
    let consumer: LatencyArguments.Consumer

    /// The item workloads: each change of `kind`'s script, through the store then the C API.
    func measureItems(_ kind: ChangeScript.Kind, rows: Int, in directory: TemporaryDirectory) async throws -> PairedSamples {
        var script = ChangeScript(kind: kind, seededRows: rows)
        let probe = try await StreamLatencyProbe(
            databasePath: Fixtures.makeSeededDatabase(rows: rows, named: "store.sqlite", in: directory),
            request: ItemRequests.flaggedByScore, consumer: consumer)
        let writer = try RawCChangeWriter(databasePath: Fixtures.makeSeededDatabase(rows: rows, named: "raw.sqlite", in: directory))
        return try await measurePairs {
            let change = script.next()
            let store = try await probe.measure { db in try db.apply(change) }
            return PairedSample(store: store, rawWrite: try ContinuousClock().measure { try writer.write(change) })
        }
    }

    /// The `related` and `included` workloads: each rename of the script under `request`,
    /// through the store then the C API.
    func measureRenames(rows: Int, request: StoreRequest<Item>, in directory: TemporaryDirectory) async throws -> PairedSamples {
        var script = ListRenameScript(seededRows: rows)
        let probe = try await StreamLatencyProbe(
            databasePath: Fixtures.makeRelatedDatabase(rows: rows, named: "store.sqlite", in: directory),
            request: request, consumer: consumer)
        let writer = try SQLiteConnection(path: Fixtures.makeRelatedDatabase(rows: rows, named: "raw.sqlite", in: directory))
        let statement = try writer.prepare(RelatedSQL.renameList)
        return try await measurePairs {
            let rename = script.next()
            let store = try await probe.measure { db in
                try db.execute(sql: RelatedSQL.renameList, arguments: [rename.name, rename.listID])
            }
            let rawWrite = try ContinuousClock().measure {
                sqlite3_bind_text(statement.handle, 1, rename.name, -1, sqliteTransient)
                sqlite3_bind_int64(statement.handle, 2, rename.listID)
                try statement.run()
            }
            return PairedSample(store: store, rawWrite: rawWrite)
        }
    }

    /// The `counted` and `filtered` workloads: each insert of a flagged item into a random
    /// list under `request`, through the store then the C API.
    func measureChildInserts(
        rows: Int, request: StoreRequest<CountedListQuery.List>, in directory: TemporaryDirectory
    ) async throws -> PairedSamples {
        var generator = ItemGenerator(seed: 0xC0_017ED)
        let lists = rows / Fixtures.itemsPerList
        let probe = try await StreamLatencyProbe(
            databasePath: Fixtures.makeRelatedDatabase(rows: rows, named: "store.sqlite", in: directory),
            request: request, consumer: consumer)
        let writer = try SQLiteConnection(path: Fixtures.makeRelatedDatabase(rows: rows, named: "raw.sqlite", in: directory))
        let statement = try writer.prepare(CountedListQuery.addItem)
        return try await measurePairs {
            let listID = Int64(generator.nextIndex(below: lists) + 1)
            let store = try await probe.measure { db in try db.execute(sql: CountedListQuery.addItem, arguments: [listID]) }
            let rawWrite = try ContinuousClock().measure {
                sqlite3_bind_int64(statement.handle, 1, listID)
                try statement.run()
            }
            return PairedSample(store: store, rawWrite: rawWrite)
        }
    }

    /// A first, unmeasured pair and `iterations` measured ones, each made by `nextPair`.
    private func measurePairs(_ nextPair: () async throws -> PairedSample) async throws -> PairedSamples {
        let first = try await nextPair()
        var samples: [PairedSample] = []
        for _ in 0..<iterations { samples.append(try await nextPair()) }
        return (first, samples)
    }
}
