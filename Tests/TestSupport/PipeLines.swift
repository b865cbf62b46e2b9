// Child processes: Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation

/// The lines a child process prints to a pipe, read as they arrive by a thread of their own,
/// with blocking reads, until the end of file.
///
/// Not `FileHandle.readabilityHandler`: on Linux each handler is a libdispatch read source, and
/// when several are set up and torn down at once, libdispatch's event loop can keep a freed
/// entry and the whole test process dies in `_dispatch_event_loop_drain` (SIGSEGV,
/// swift-corelibs-libdispatch #949, open in 2026). A CI run of the full suite died in that
/// function while the CLI tests' pipes were read by handlers (its log did not show the crashed
/// thread, so this is the likely cause, not a proven one). A blocking read never registers the
/// descriptor with libdispatch.
public final class PipeLines: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var lines: [String] = []
    private var partial = Data()
    private var isEnded = false

    /// Starts reading `handle`, a pipe's read end, which this object keeps open until the end of
    /// file (the thread holds it and this object until then).
    public init(reading handle: FileHandle) {
        Thread.detachNewThread { [self] in
            readUntilEndOfFile(handle)
        }
    }

    /// The lines printed so far, from the `index`-th on; the last one only once it is complete
    /// or the pipe has ended.
    public func lines(from index: Int) -> [String] {
        lock.withLock { index < lines.count ? Array(lines[index...]) : [] }
    }

    /// Whether the pipe has reached its end of file: every writer closed it.
    public var hasEnded: Bool { lock.withLock { isEnded } }

    /// Waits, without holding a thread, until the pipe has ended.
    public func ended() async throws {
        while !hasEnded { try await Task.sleep(for: .milliseconds(5)) }
    }

    private func readUntilEndOfFile(_ handle: FileHandle) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            append(buffer[..<count])
        }
        lock.withLock {
            if !partial.isEmpty { lines.append(String(decoding: partial, as: UTF8.self)) }
            partial.removeAll()
            isEnded = true
        }
    }

    private func append(_ bytes: ArraySlice<UInt8>) {
        lock.withLock {
            partial.append(contentsOf: bytes)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                partial.removeSubrange(partial.startIndex...newline)
            }
        }
    }
}
#endif
