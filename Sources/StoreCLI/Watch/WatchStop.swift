import Dispatch
import Foundation

/// What ends `store watch`: SIGINT or SIGTERM, and with `--json` the end of standard input.
/// Keep the value alive while watching.
final class WatchStop {
    private let sources: [any DispatchSourceSignal]

    /// Calls `stop` once one of the events happens (possibly more than once; it must be idempotent).
    init(watchingStandardInput: Bool, stop: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
        if watchingStandardInput {
            Thread.detachNewThread {
                Self.waitForEndOfStandardInput()
                stop()
            }
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    private static func waitForEndOfStandardInput() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EINTR) { return }
        }
    }
}
