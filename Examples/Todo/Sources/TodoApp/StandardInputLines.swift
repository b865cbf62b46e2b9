import Foundation

/// The lines of standard input, read on a thread of their own, so that the main actor stays
/// free to apply the live list's changes while the program waits for a line.
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread {
                while let line = readLine() { continuation.yield(line) }
                continuation.finish()
            }.start()
        }
    }
}
