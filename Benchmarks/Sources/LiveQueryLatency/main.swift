import BenchmarkKit
import RawSQLiteContender

// Time from before `store.write` to a `changes()` consumer on the main actor holding the
// change set, measured as an app would, over many iterations (see Benchmarks/README.md):
//
//   swift run -c release --package-path Benchmarks LiveQueryLatency [rows …] [--iterations N]
//
// For each size and observe workload it prints the median and 90th percentile of: the
// receipt (write start to consumer), `store.write` alone (until it returned), and the same
// transactions written with the raw C API without any observer (SQLite's share); plus the
// first, unmeasured iteration's receipt. Times in milliseconds.

let arguments = LatencyArguments(CommandLine.arguments.dropFirst())
print("rows     workload  iterations   receipt p50   p90   store.write p50   p90   rawC write p50   p90   first")
for rows in arguments.rows {
    for (name, kind) in LatencyArguments.workloads {
        let iterations = name == "bulk" ? max(1, arguments.iterations / 10) : arguments.iterations
        let directory = try TemporaryDirectory()
        let storeSamples = try await measureStore(
            rows: rows, kind: kind, iterations: iterations,
            path: Fixtures.makeSeededDatabase(rows: rows, named: "store.sqlite", in: directory))
        let rawWrites = try measureRawWrites(
            rows: rows, kind: kind, iterations: iterations,
            path: Fixtures.makeSeededDatabase(rows: rows, named: "raw.sqlite", in: directory))
        let receipt = LatencySummary(storeSamples.measured.map(\.receipt))
        let write = LatencySummary(storeSamples.measured.map(\.write))
        print(
            "\(rows)\t \(name)\t\(iterations)\t\(receipt)\t\(write)\t\(LatencySummary(rawWrites))\t"
                + LatencySummary.format(LatencySummary.milliseconds(storeSamples.first.receipt)))
    }
}

@MainActor
func measureStore(
    rows: Int, kind: ChangeScript.Kind, iterations: Int, path: String
) async throws -> (first: StreamLatencyProbe.Sample, measured: [StreamLatencyProbe.Sample]) {
    let probe = try StreamLatencyProbe(databasePath: path)
    var script = ChangeScript(kind: kind, seededRows: rows)
    let first = try await probe.measure(script.next())
    var samples: [StreamLatencyProbe.Sample] = []
    for _ in 0..<iterations { samples.append(try await probe.measure(script.next())) }
    return (first, samples)
}

func measureRawWrites(rows: Int, kind: ChangeScript.Kind, iterations: Int, path: String) throws -> [Duration] {
    let writer = try RawCChangeWriter(databasePath: path)
    var script = ChangeScript(kind: kind, seededRows: rows)
    try writer.write(script.next())
    return try (0..<iterations).map { _ in
        let change = script.next()
        return try ContinuousClock().measure { try writer.write(change) }
    }
}
