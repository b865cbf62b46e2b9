import BenchmarkKit
import Foundation
import SQLiteStoreCore

/// What commits that leave the WAL long cost the writer with the store's checkpointer (the
/// checkpoint beside the writer) and with SQLite's automatic checkpoint (inside the commit,
/// given back to SQLite by setting `wal_autocheckpoint` on the writer), runs of each alternated:
///
///     swift run -c release --package-path Benchmarks LargeCommits [--runs 6] [--rows 1500] [--writes 20]
///
/// Each run opens a new store, writes `writes` transactions of `rows` rows of about 2 KB (about
/// 1,000 pages each, a snapshot page's write in a new device's sync), then 200 one-row
/// transactions. It prints each run's time for the large writes, their median, p90 and slowest
/// commit, and the small writes' time, then the medians of each side.
struct Options {
    var runs = 6
    var rows = 1_500
    var writes = 20
}

/// One run's times, in milliseconds.
struct Run {
    var largeWrites: Double
    var medianCommit: Double
    var p90Commit: Double
    var slowestCommit: Double
    var smallWrites: Double
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    while let name = arguments.popFirst() {
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            print("usage: LargeCommits [--runs N] [--rows N] [--writes N]")
            exit(2)
        }
        switch name {
        case "--runs": options.runs = value
        case "--rows": options.rows = value
        case "--writes": options.writes = value
        default:
            print("unknown option \(name)")
            exit(2)
        }
    }
    return options
}

func run(_ options: Options, checkpointer: Bool, at path: String) throws -> Run {
    let store = try Store(path: path)
    defer { try? store.close() }
    if !checkpointer { try store.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000") } }
    try store.write { db in try db.execute(sql: "CREATE TABLE t(k TEXT PRIMARY KEY, b BLOB)") }
    let clock = ContinuousClock()
    var commits: [Double] = []
    let large = try clock.measure {
        for write in 0..<options.writes {
            let commit = try clock.measure {
                try store.write { db in
                    try db.execute(
                        sql: """
                            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                            INSERT INTO t SELECT hex(randomblob(16)) || ?, randomblob(2000) FROM n
                            """,
                        arguments: [options.rows, write])
                }
            }
            commits.append(commit.inMilliseconds)
        }
    }
    let small = try clock.measure {
        for index in 0..<200 {
            try store.write { db in try db.execute(sql: "INSERT INTO t VALUES (?, zeroblob(100))", arguments: ["s\(index)"]) }
        }
    }
    commits.sort()
    return Run(
        largeWrites: large.inMilliseconds, medianCommit: commits[commits.count / 2], p90Commit: commits[commits.count * 9 / 10],
        slowestCommit: commits[commits.count - 1], smallWrites: small.inMilliseconds)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func label(_ checkpointer: Bool) -> String { checkpointer ? "the store's checkpointer" : "SQLite's checkpoint" }

let options = parseOptions()
let directory = try TemporaryDirectory()
var sides: [Bool: [Run]] = [:]
for index in 0..<(options.runs * 2) {
    let checkpointer = index % 2 == 1
    let measured = try run(options, checkpointer: checkpointer, at: directory.path(for: "commits-\(index).sqlite"))
    sides[checkpointer, default: []].append(measured)
    print(
        String(
            format: "%@: %d writes of %d rows %.0f ms (commit median %.1f ms, p90 %.1f ms, slowest %.1f ms); 200 one-row writes %.1f ms",
            label(checkpointer), options.writes, options.rows, measured.largeWrites, measured.medianCommit, measured.p90Commit,
            measured.slowestCommit, measured.smallWrites))
}
for checkpointer in [false, true] {
    let runs = sides[checkpointer] ?? []
    print(
        String(
            format:
                "median of %d runs, %@: large writes %.0f ms, commit median %.1f ms, p90 %.1f ms, slowest %.1f ms, one-row writes %.1f ms",
            runs.count, label(checkpointer), median(runs.map(\.largeWrites)), median(runs.map(\.medianCommit)),
            median(runs.map(\.p90Commit)), median(runs.map(\.slowestCommit)), median(runs.map(\.smallWrites))))
}
