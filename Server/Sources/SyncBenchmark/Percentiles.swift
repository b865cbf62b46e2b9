/// Order statistics of measured durations, in milliseconds.
struct Percentiles: CustomStringConvertible {
    private let sorted: [Double]

    init(_ durations: [Duration]) {
        sorted = durations.map(\.milliseconds).sorted()
    }

    /// The value below which a fraction `q` of the samples lie (nearest rank).
    func at(_ q: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((Double(sorted.count) * q).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var description: String {
        "p50 \(Self.format(at(0.5))) p90 \(Self.format(at(0.9))) p99 \(Self.format(at(0.99))) max \(Self.format(at(1)))"
    }

    /// Milliseconds with two decimals.
    static func format(_ milliseconds: Double) -> String {
        milliseconds.isFinite ? String(format: "%.2f ms", milliseconds) : "–"
    }
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1e3 + Double(components.attoseconds) * 1e-15
    }

    var seconds: Double { milliseconds / 1e3 }
}
