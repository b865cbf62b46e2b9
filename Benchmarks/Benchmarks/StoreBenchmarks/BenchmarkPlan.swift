import Benchmark
import BenchmarkKit

/// Which combinations run and for how long, so that the whole suite stays under 15 minutes on
/// a 2-core machine. Each benchmark stops at `maxIterations` or, after at least one measured
/// iteration, once its measured time passes `maxDuration`.
enum BenchmarkPlan {
    /// The configuration of `workload` over `rows` rows for `library`, or `nil` when skipped.
    static func configuration(
        _ workload: Workload, _ rows: RowCount, _ library: ContenderLibrary
    ) -> Benchmark.Configuration? {
        guard skipReason(workload, rows, library) == nil else { return nil }
        if workload.isMemory {
            // One cold iteration: a warm-up would leave its peak in the process's resident set.
            return Benchmark.Configuration(
                metrics: [.peakMemoryResident, .peakMemoryResidentDelta],
                warmupIterations: 0, maxDuration: .seconds(1), maxIterations: 1)
        }
        let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
        return switch rows {
        case .tenThousand:
            Benchmark.Configuration(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(2), maxIterations: 20)
        case .hundredThousand:
            Benchmark.Configuration(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 7)
        case .million where workload.isObserve || workload == .firstScreen || workload == .firstScreenSectioned:
            // One write, or one first screen, per iteration: cheap enough for a warm-up and a
            // median of more than three samples, so that 1M is measured like 10k and 100k (the
            // targets compare them). GRDB's first screen, which reads every row, stops at 5 s.
            Benchmark.Configuration(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 10)
        case .million:
            Benchmark.Configuration(metrics: metrics, warmupIterations: 0, maxDuration: .seconds(5), maxIterations: 3)
        }
    }

    /// Why a combination is not run, or `nil` when it is.
    static func skipReason(_ workload: Workload, _ rows: RowCount, _ library: ContenderLibrary) -> String? {
        switch (workload, rows, library) {
        case (.fetchPage, .million, _):
            "OFFSET 500,000 makes SQLite step 500,000 index entries per page: about 40 s per iteration "
                + "of 1,000 pages, the same work for every contender"
        case (.observeBulk, .million, .grdb):
            "difference(from:) costs O((n + m) · d): 2,000 edits over 500,000 ids take minutes per iteration"
        default:
            nil
        }
    }
}
