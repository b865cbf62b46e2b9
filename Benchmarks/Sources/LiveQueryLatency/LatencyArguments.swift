import BenchmarkKit

/// The harness's command line: row counts (default 10,000, 100,000 and 1,000,000) and
/// `--iterations N` (default 200 for one-row changes; bulk changes run a tenth as many).
struct LatencyArguments {
    static let workloads: [(String, ChangeScript.Kind)] = [
        ("update", .updateOne), ("insert", .insertOne), ("delete", .deleteOne), ("bulk", .updateMany(count: 1_000)),
    ]

    var rows: [Int] = []
    var iterations = 200

    init(_ arguments: ArraySlice<String>) {
        var arguments = arguments
        while let argument = arguments.popFirst() {
            if argument == "--iterations", let count = arguments.popFirst().flatMap(Int.init) {
                iterations = count
            } else if let count = Int(argument) {
                rows.append(count)
            }
        }
        if rows.isEmpty { rows = [10_000, 100_000, 1_000_000] }
    }
}
