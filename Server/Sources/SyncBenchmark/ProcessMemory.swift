import Foundation

/// The memory a process holds, read from Linux's `/proc`; `nil` elsewhere.
enum ProcessMemory {
    /// The process `pid`'s resident set (`VmRSS`), in bytes.
    static func residentBytes(of pid: Int32) -> Int? {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1024
        #else
        return nil
        #endif
    }
}
