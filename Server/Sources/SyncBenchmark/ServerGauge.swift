import Foundation
import NIOCore

/// Reads one unlabelled gauge from a server's `/metrics` (Prometheus's text format).
enum ServerGauge {
    /// The value of `name` in `metrics`, the text `/metrics` answered; `nil` when absent.
    static func value(of name: String, in metrics: ByteBuffer) -> Double? {
        for line in String(buffer: metrics).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == name { return Double(fields[1]) }
        }
        return nil
    }
}
