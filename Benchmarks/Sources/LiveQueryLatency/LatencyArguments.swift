import BenchmarkKit

/// The harness's command line: row counts (default 10,000, 100,000 and 1,000,000),
/// `--iterations N` (default 200 for one-row changes; bulk changes run a tenth as many) and
/// `--only name`, repeatable, to run only the workloads named.
struct LatencyArguments {
    /// One observe workload: a change script on the item table, or list renames.
    struct Workload {
        enum Kind {
            case items(ChangeScript.Kind)
            case listRename
        }
        let name: String
        let kind: Kind
    }

    static let allWorkloads = [
        Workload(name: "update", kind: .items(.updateOne)), Workload(name: "insert", kind: .items(.insertOne)),
        Workload(name: "delete", kind: .items(.deleteOne)), Workload(name: "bulk", kind: .items(.updateMany(count: 1_000))),
        Workload(name: "related", kind: .listRename),
    ]

    var rows: [Int] = []
    var iterations = 200
    var workloads: [Workload] = []

    init(_ arguments: ArraySlice<String>) {
        var arguments = arguments
        var names: Set<String> = []
        while let argument = arguments.popFirst() {
            if argument == "--iterations", let count = arguments.popFirst().flatMap(Int.init) {
                iterations = count
            } else if argument == "--only", let name = arguments.popFirst() {
                names.insert(name)
            } else if let count = Int(argument) {
                rows.append(count)
            }
        }
        if rows.isEmpty { rows = [10_000, 100_000, 1_000_000] }
        workloads = Self.allWorkloads.filter { names.isEmpty || names.contains($0.name) }
    }
}
