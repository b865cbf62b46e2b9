import BenchmarkKit

/// The harness's command line: row counts (default 10,000, 100,000 and 1,000,000),
/// `--iterations N` (default 200 for one-row changes; bulk changes run a tenth as many),
/// `--only name`, repeatable, to run only the workloads named, `--consumer name` (see
/// `Consumer`) and `--runloop`, to run `RunLoop.main` on the main thread as an app does
/// (otherwise the main thread runs the main dispatch queue, as an `async` main does).
struct LatencyArguments {
    /// One observe workload: a change script on the item table, or list renames under a request.
    struct Workload {
        enum Kind {
            case items(ChangeScript.Kind)
            /// Renames under the `related` query (ordered and sectioned by the list's name), or
            /// under the `included` one (rows that include their list).
            case listRename(included: Bool)
            /// Adds one flagged item to a random list under the `counted` query (lists
            /// ordered by their number of flagged items), or under the `filtered` one (the
            /// same, filtered by their items).
            case countedChildInsert(filtered: Bool)
        }
        let name: String
        let kind: Kind
    }

    /// Who takes the changes on the main actor.
    enum Consumer: String, CaseIterable {
        /// A `for try await` loop over `controller.changes()` that only stamps the time.
        case stream
        /// The same loop keeping each change's `results` until the next change, as a diffable
        /// data source keeps its last snapshot to diff against.
        case keeping
        /// An observer of `LiveResults` of the same request (`withObservationTracking` on
        /// `lastChange`) that keeps the previous `results`; they hold every object.
        case live
    }

    static let allWorkloads = [
        Workload(name: "update", kind: .items(.updateOne)), Workload(name: "insert", kind: .items(.insertOne)),
        Workload(name: "delete", kind: .items(.deleteOne)), Workload(name: "bulk", kind: .items(.updateMany(count: 1_000))),
        Workload(name: "related", kind: .listRename(included: false)),
        Workload(name: "included", kind: .listRename(included: true)),
        Workload(name: "counted", kind: .countedChildInsert(filtered: false)),
        Workload(name: "filtered", kind: .countedChildInsert(filtered: true)),
    ]

    var rows: [Int] = []
    var iterations = 200
    var workloads: [Workload] = []
    var consumer = Consumer.stream
    var runsRunLoop = false

    init(_ arguments: ArraySlice<String>) {
        var arguments = arguments
        var names: Set<String> = []
        while let argument = arguments.popFirst() {
            if argument == "--iterations", let count = arguments.popFirst().flatMap(Int.init) {
                iterations = count
            } else if argument == "--only", let name = arguments.popFirst() {
                names.insert(name)
            } else if argument == "--consumer", let consumer = arguments.popFirst().flatMap(Consumer.init(rawValue:)) {
                self.consumer = consumer
            } else if argument == "--runloop" {
                runsRunLoop = true
            } else if let count = Int(argument) {
                rows.append(count)
            }
        }
        if rows.isEmpty { rows = [10_000, 100_000, 1_000_000] }
        workloads = Self.allWorkloads.filter { names.isEmpty || names.contains($0.name) }
    }
}
