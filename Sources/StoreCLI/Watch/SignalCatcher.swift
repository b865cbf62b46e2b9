import Dispatch
import Foundation

/// Reports every arrival of the given signals from the moment it is created, none lost; the
/// signals no longer take their default action (ending the process).
///
/// A Dispatch signal source sees a signal only once it is registered, which happens a moment
/// later on another thread; a signal that comes first takes its default action or, when ignored,
/// is lost. (That is how `store watch` once missed a SIGTERM sent right after it started and
/// ran its endless query on.) So a plain handler is installed first: it writes a byte to a pipe,
/// about all a signal handler may do, and a Dispatch read source on the pipe reports the byte
/// whenever that source is registered. Dispatch signal sources report what comes later: on Linux
/// they replace the handler once registered, on Apple platforms the handler stays alongside them.
///
/// Signal dispositions are process-wide, and so is the pipe: create one catcher per process.
final class SignalCatcher {
    private let sources: [any DispatchSourceProtocol]

    /// Starts catching `signals`; calls `handler` on a global queue after each arrival (arrivals
    /// close together may be reported once).
    init(_ signals: [Int32], handler: @escaping @Sendable () -> Void) {
        let early = Self.pipe.read < 0 ? nil : DispatchSource.makeReadSource(fileDescriptor: Self.pipe.read, queue: .global())
        early?.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            if read(Self.pipe.read, &bytes, bytes.count) > 0 { handler() }
        }
        early?.resume()
        let late = signals.map { number in
            signal(number, Self.writeToPipe)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler() }
            source.resume()
            return source
        }
        sources = [early].compactMap { $0 } + late
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// The pipe the handler writes to, both ends non-blocking: a full pipe (thousands of signals
    /// not yet read) must not block the handler, and one unread byte is enough. (-1, -1) when
    /// no pipe could be made: then only the Dispatch signal sources report, once registered.
    private static let pipe: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard Foundation.pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        return (ends[0], ends[1])
    }()

    /// The signal handler: only `write`, which is async-signal-safe, and `errno` restored.
    private static let writeToPipe: @convention(c) (Int32) -> Void = { _ in
        let savedErrno = errno
        var byte: UInt8 = 1
        _ = write(SignalCatcher.pipe.write, &byte, 1)
        errno = savedErrno
    }
}
