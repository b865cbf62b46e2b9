import BenchmarkKit

/// The median and 90th percentile of measured durations, in milliseconds.
struct LatencySummary: CustomStringConvertible {
    let median: Double
    let p90: Double

    init(_ durations: [Duration]) {
        let sorted = durations.map(\.inMilliseconds).sorted()
        median = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        p90 = sorted.isEmpty ? .nan : sorted[(sorted.count - 1) * 9 / 10]
    }

    var description: String { "\(Self.format(median)) \(Self.format(p90))" }

    /// `value` with three decimals, right-aligned in 9 characters.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return String(repeating: " ", count: 6) + "nan" }
        let text = String(Int(abs(value * 1000).rounded()))
        let padded = String(repeating: "0", count: max(0, 4 - text.count)) + text
        let number = (value < 0 ? "-" : "") + padded.dropLast(3) + "." + padded.suffix(3)
        return String(repeating: " ", count: max(0, 9 - number.count)) + number
    }
}
