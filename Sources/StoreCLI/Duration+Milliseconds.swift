import Foundation

extension Duration {
    /// The duration in milliseconds, with one decimal.
    var millisecondsText: String {
        let (seconds, attoseconds) = components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.1f", value)
    }
}
