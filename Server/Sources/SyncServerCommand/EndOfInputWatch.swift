import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops the process when its standard input ends, by sending it SIGTERM (a graceful stop).
///
/// A parent that runs the server as its child gives it a pipe as standard input and keeps the
/// other end open: when the parent ends, however it ends (a crash, SIGKILL), the system closes
/// that end, and the server stops instead of running on with nobody to stop it.
enum EndOfInputWatch {
    /// Reads standard input on a thread of its own, discarding what comes, until it ends.
    static func start() {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count > 0 || (count < 0 && errno == EINTR) { continue }
                break
            }
            kill(getpid(), SIGTERM)
        }
    }
}
