import Foundation

/// CPU time (user plus system) that processes used, read from Linux's `/proc`; `nil` elsewhere.
enum ProcessCPU {
    /// The process `pid`'s CPU time, and its reaped children's when `withChildren`.
    static func time(of pid: Int32, withChildren: Bool = false) -> Duration? {
        guard let fields = statFields(of: pid) else { return nil }
        // After the command: state, ppid, … utime (14th field of the line), stime, cutime, cstime.
        let ticks = fields[11] + fields[12] + (withChildren ? fields[13] + fields[14] : 0)
        return ticksToDuration(ticks)
    }

    /// The CPU time of the process tree under `root` (PostgreSQL's postmaster): the root with
    /// its reaped children (backends that ended), and each child that runs now.
    static func treeTime(of root: Int32) -> Duration? {
        guard var total = time(of: root, withChildren: true) else { return nil }
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in processes.compactMap(Int32.init) {
            guard let fields = statFields(of: pid), fields[1] == Int64(root), let child = time(of: pid, withChildren: true) else {
                continue
            }
            total += child
        }
        return total
    }

    /// The numeric fields of `/proc/pid/stat` after the command in parentheses, from the state
    /// (which reads as 0) on.
    private static func statFields(of pid: Int32) -> [Int64]? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: end)...].split(separator: " ").map { Int64($0) ?? 0 }
        return fields.count > 14 ? fields : nil
        #else
        return nil
        #endif
    }

    private static func ticksToDuration(_ ticks: Int64) -> Duration {
        let perSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
        return .milliseconds(ticks * 1000 / max(perSecond, 1))
    }
}
