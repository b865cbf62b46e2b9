import BenchmarkKit
import CSQLiteBench
import Foundation
import StoreContender

// `FirstScreen ROWS --memory`: where the memory of a list over every row goes (the `frcMemory`
// workload's list: a controller over all rows by score, batch size 100, loaded and held). It
// prints, above the figures before loading: the resident memory while the list is held, the
// resident peak while it loaded, the bytes malloc has handed out and not taken back (the
// process's live heap: the index, the objects, SQLite's caches), the bytes malloc holds free
// (freed, not returned to the system), and SQLite's own allocations; then the same once the
// list is released, and after `malloc_trim`. Linux only (glibc's malloc statistics).

#if os(Linux)
/// Memory figures of this process, in bytes.
struct MemoryFigures {
    /// Resident memory (`VmRSS`).
    let resident: Int
    /// The resident peak since the last `resetPeak()` (`VmHWM`).
    let peak: Int
    /// Heap bytes handed out and not freed (`mallinfo2`: in use in arenas, plus mmapped blocks).
    let heapInUse: Int
    /// Heap bytes free in malloc's arenas, not returned to the system.
    let heapFree: Int
    /// SQLite's own allocations (`sqlite3_memory_used`).
    let sqlite: Int

    static func now() -> MemoryFigures {
        let info = mallinfo2()
        return MemoryFigures(
            resident: statusField("VmRSS"), peak: statusField("VmHWM"), heapInUse: Int(info.uordblks + info.hblkhd),
            heapFree: Int(info.fordblks), sqlite: Int(sqlite3_memory_used()))
    }

    /// A field of `/proc/self/status` given in kB, in bytes.
    private static func statusField(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }

    /// Starts a new resident peak (`VmHWM`) from the resident memory now.
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// Each figure above `base`, in MiB, labelled.
    func growth(over base: MemoryFigures) -> String {
        func mebibytes(_ bytes: Int) -> String { format3(Double(bytes) / 1_048_576) }
        return "resident +\(mebibytes(resident - base.resident))\tpeak +\(mebibytes(peak - base.resident))"
            + "\theap in use +\(mebibytes(heapInUse - base.heapInUse))\theap free +\(mebibytes(heapFree - base.heapFree))"
            + "\tSQLite +\(mebibytes(sqlite - base.sqlite)) MiB"
    }
}

/// Loads and holds the `frcMemory` list over `rows` rows, printing where its memory goes.
@MainActor
func measureMemory(rows: Int) async throws {
    let directory = try TemporaryDirectory()
    let path = try Fixtures.makeSeededDatabase(rows: rows, named: "memory.sqlite", in: directory)
    let holder = try await StoreResultsHolder(databasePath: path)
    malloc_trim(0)
    let base = MemoryFigures.now()
    MemoryFigures.resetPeak()
    var results: HeldResults? = try await holder.loadResults(batchSize: 100)
    try await Task.sleep(for: .milliseconds(100))
    print("\(rows)\tlist held\t\(MemoryFigures.now().growth(over: base))")
    guard let count = results.map(holder.rowCount), count == rows else { throw NoRows(workload: "memory") }
    results = nil
    try await Task.sleep(for: .milliseconds(100))
    print("\(rows)\tlist released\t\(MemoryFigures.now().growth(over: base))")
    malloc_trim(0)
    print("\(rows)\treleased, trimmed\t\(MemoryFigures.now().growth(over: base))")
}
#else
/// Needs glibc's malloc statistics.
@MainActor
func measureMemory(rows: Int) async throws {
    print("--memory runs on Linux only")
}
#endif
