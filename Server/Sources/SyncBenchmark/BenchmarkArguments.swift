/// The benchmark's command line (see Benchmarks/README.md, "Sync"):
///
///     SyncBenchmark [latency] [initial] [load] [wire] [--rows 10000,1000000] [--iterations 200]
///         [--initial-rows 100000] [--rounds 3] [--batch 5000] [--clients 50] [--seconds 10] [--servers 1,2]
///         [--changes-per-push 10] [--accounts N]
///
/// Without a part named, all four run. `initial` measures `--rounds` pairs of a local insert and
/// an initial sync; `wire` decodes pages of `--batch` rows `--iterations` times.
struct BenchmarkArguments {
    enum Part: String, CaseIterable {
        /// ``WriteToChangeSet``.
        case latency
        /// ``InitialSync``.
        case initial
        /// ``SustainedPushes``.
        case load
        /// ``WireDecoding``.
        case wire
    }

    var parts: [Part] = []
    var rows = [10_000, 1_000_000]
    var iterations = 200
    var initialRows = 100_000
    var rounds = 3
    var batchSize = 5_000
    var clients = 50
    var seconds = 10
    var serverCounts = [1, 2]
    var changesPerPush = 10
    /// Accounts of the load's devices; one per device when nil.
    var accounts: Int?

    init(_ arguments: ArraySlice<String>) throws {
        var arguments = arguments
        while let argument = arguments.popFirst() {
            if let part = Part(rawValue: argument) {
                parts.append(part)
                continue
            }
            guard argument.hasPrefix("--"), let value = arguments.popFirst() else { throw usage("unknown argument \(argument)") }
            switch argument {
            case "--rows": rows = try Self.counts(value, argument)
            case "--iterations": iterations = try Self.count(value, argument)
            case "--initial-rows": initialRows = try Self.count(value, argument)
            case "--rounds": rounds = try Self.count(value, argument)
            case "--batch": batchSize = try Self.count(value, argument)
            case "--clients": clients = try Self.count(value, argument)
            case "--seconds": seconds = try Self.count(value, argument)
            case "--servers": serverCounts = try Self.counts(value, argument)
            case "--changes-per-push": changesPerPush = try Self.count(value, argument)
            case "--accounts": accounts = try Self.count(value, argument)
            default: throw usage("unknown option \(argument)")
            }
        }
        if parts.isEmpty { parts = Part.allCases }
    }

    private static func count(_ value: String, _ option: String) throws -> Int {
        guard let count = Int(value), count > 0 else { throw usage("\(option) takes a positive integer, not \(value)") }
        return count
    }

    private static func counts(_ value: String, _ option: String) throws -> [Int] {
        try value.split(separator: ",").map { try count(String($0), option) }
    }
}

/// A command line the benchmark does not understand.
struct UsageError: Error, CustomStringConvertible {
    let description: String
}

private func usage(_ problem: String) -> UsageError {
    UsageError(
        description: """
            \(problem)
            usage: SyncBenchmark [latency] [initial] [load] [wire] [--rows 10000,1000000] [--iterations 200] \
            [--initial-rows 100000] [--rounds 3] [--batch 5000] [--clients 50] [--seconds 10] [--servers 1,2] \
            [--changes-per-push 10] [--accounts N]
            """)
}
