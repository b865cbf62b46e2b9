import BenchmarkKit
import CSQLiteBench
import RawSQLiteContender
import SQLiteStoreCore
import StoreContender

// Time from before `store.write` to a `changes()` consumer on the main actor holding the
// change set, measured as an app would, over many iterations (see Benchmarks/README.md):
//
//   swift run -c release --package-path Benchmarks LiveQueryLatency [rows …] [--iterations N] [--only workload]
//
// For each size and observe workload it prints the median and 90th percentile of: the
// receipt (write start to consumer), `store.write` alone (until it returned), and the same
// transactions written with the raw C API without any observer (SQLite's share); plus the
// first, unmeasured iteration's receipt. Times in milliseconds. Workloads: `update`,
// `insert`, `delete` and `bulk` (1,000 rows) on `flag = 1 ORDER BY score`; `related` renames
// a list of 100 items under a query ordered and sectioned by the list's name.

let arguments = LatencyArguments(CommandLine.arguments.dropFirst())
print("rows     workload  iterations   receipt p50   p90   store.write p50   p90   rawC write p50   p90   first")
for rows in arguments.rows {
    for workload in arguments.workloads {
        let iterations = workload.name == "bulk" ? max(1, arguments.iterations / 10) : arguments.iterations
        let directory = try TemporaryDirectory()
        let (storeSamples, rawWrites) =
            switch workload.kind {
            case .items(let kind): try await measureItems(kind, rows: rows, iterations: iterations, in: directory)
            case .listRename: try await measureRenames(rows: rows, iterations: iterations, in: directory)
            }
        let receipt = LatencySummary(storeSamples.measured.map(\.receipt))
        let write = LatencySummary(storeSamples.measured.map(\.write))
        print(
            "\(rows)\t \(workload.name)\t\(iterations)\t\(receipt)\t\(write)\t\(LatencySummary(rawWrites))\t"
                + LatencySummary.format(LatencySummary.milliseconds(storeSamples.first.receipt)))
    }
}

typealias StoreSamples = (first: StreamLatencyProbe.Sample, measured: [StreamLatencyProbe.Sample])

/// The item workloads: each change of `kind`'s script through the store, then with the C API.
@MainActor
func measureItems(
    _ kind: ChangeScript.Kind, rows: Int, iterations: Int, in directory: TemporaryDirectory
) async throws -> (StoreSamples, [Duration]) {
    var script = ChangeScript(kind: kind, seededRows: rows)
    let samples = try await measureStore(
        path: Fixtures.makeSeededDatabase(rows: rows, named: "store.sqlite", in: directory),
        request: ItemRequests.flaggedByScore, iterations: iterations
    ) {
        let change = script.next()
        return { db in try db.apply(change) }
    }
    let writer = try RawCChangeWriter(databasePath: Fixtures.makeSeededDatabase(rows: rows, named: "raw.sqlite", in: directory))
    script = ChangeScript(kind: kind, seededRows: rows)
    try writer.write(script.next())
    let rawWrites = try (0..<iterations).map { _ in
        let change = script.next()
        return try ContinuousClock().measure { try writer.write(change) }
    }
    return (samples, rawWrites)
}

/// The `related` workload: each rename of the script through the store, then with the C API.
@MainActor
func measureRenames(rows: Int, iterations: Int, in directory: TemporaryDirectory) async throws -> (StoreSamples, [Duration]) {
    var script = ListRenameScript(seededRows: rows)
    let samples = try await measureStore(
        path: Fixtures.makeRelatedDatabase(rows: rows, named: "store.sqlite", in: directory),
        request: StoreRelatedLiveQuery.request, iterations: iterations
    ) {
        let rename = script.next()
        return { db in try db.execute(sql: RelatedSQL.renameList, arguments: [rename.name, rename.listID]) }
    }
    let writer = try SQLiteConnection(path: Fixtures.makeRelatedDatabase(rows: rows, named: "raw.sqlite", in: directory))
    let statement = try writer.prepare(RelatedSQL.renameList)
    script = ListRenameScript(seededRows: rows)
    let rawWrites = try (0...iterations).map { _ in
        let rename = script.next()
        return try ContinuousClock().measure {
            sqlite3_bind_text(statement.handle, 1, rename.name, -1, sqliteTransient)
            sqlite3_bind_int64(statement.handle, 2, rename.listID)
            try statement.run()
        }
    }
    return (samples, Array(rawWrites.dropFirst()))
}

/// A first, unmeasured change and `iterations` measured ones, each made by `nextChange`.
@MainActor
func measureStore(
    path: String, request: StoreRequest<Item>, iterations: Int,
    nextChange: () -> @Sendable (Database) throws -> Void
) async throws -> StoreSamples {
    let probe = try StreamLatencyProbe(databasePath: path, request: request)
    let first = try await probe.measure(nextChange())
    var samples: [StreamLatencyProbe.Sample] = []
    for _ in 0..<iterations { samples.append(try await probe.measure(nextChange())) }
    return (first, samples)
}
