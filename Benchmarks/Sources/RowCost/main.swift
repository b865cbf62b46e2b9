import BenchmarkKit
import Foundation
import RawSQLiteContender
import StoreContender

/// One workload of one contender at one size, run once, for counting instructions per row:
///
///     swift build -c release --package-path Benchmarks --product RowCost
///     valgrind --tool=callgrind --toggle-collect='*measuredRun*' \
///         Benchmarks/.build/release/RowCost insert SQLiteStoreMacro 100000
///
/// Only `measuredRun` (the workload itself, on the calling thread) is collected: opening the
/// database, generating the items and the fixture are not. `notifyOverhead` delivers on another
/// thread: count it with the whole run (no `--toggle-collect`) against the same run of `insert`.
let arguments = CommandLine.arguments
guard arguments.count == 4, let rows = Int(arguments[3]) else {
    print("usage: RowCost insert|notifyOverhead|fetchAll rawC|SQLiteStore|SQLiteStoreMacro rows")
    exit(2)
}
let (workload, library) = (arguments[1], arguments[2])
let directory = try TemporaryDirectory()

/// The measured part; its name is what `--toggle-collect` matches.
@inline(never)
func measuredRun(_ body: () throws -> Void) rethrows { try body() }

func runInsert<Contender: InsertContender>(_: Contender.Type) throws {
    let contender = try Contender(databasePath: Fixtures.makeEmptyDatabase(named: "insert.sqlite", in: directory))
    if workload == "notifyOverhead" { try contender.attachChangeSubscriber() }
    var generator = ItemGenerator()
    var batch = generator.items(count: rows).map(Contender.Model.init)
    try measuredRun { try contender.insert(&batch) }
    print("\(workload) \(library) \(rows): \(batch.count) inserted, \(contender.notifiedInsertCount) notified")
}

func runFetch<Contender: FetchContender>(_: Contender.Type) throws {
    let contender = try Contender(databasePath: Fixtures.makeSeededDatabase(rows: rows, named: "fetch.sqlite", in: directory))
    var count = 0
    try measuredRun { count = try contender.fetchAllByScore().count }
    print("fetchAll \(library) \(rows): \(count) fetched")
}

switch (workload, library) {
case ("insert", "rawC"), ("notifyOverhead", "rawC"): try runInsert(RawCInserter.self)
case ("insert", "SQLiteStore"), ("notifyOverhead", "SQLiteStore"): try runInsert(StoreInserter<Item>.self)
case ("insert", "SQLiteStoreMacro"), ("notifyOverhead", "SQLiteStoreMacro"): try runInsert(StoreInserter<MacroItem>.self)
case ("fetchAll", "rawC"): try runFetch(RawCFetcher.self)
case ("fetchAll", "SQLiteStore"): try runFetch(StoreFetcher<Item>.self)
case ("fetchAll", "SQLiteStoreMacro"): try runFetch(StoreFetcher<MacroItem>.self)
default:
    print("unknown workload or library: \(workload) \(library)")
    exit(2)
}
