import SQLiteStoreCore

/// A hybrid logical clock's reading: a physical time in milliseconds and a counter that
/// orders events within one millisecond, or events after a reading from a clock ahead of ours.
///
/// A device's timestamps only grow, and one taken after seeing a change is greater than that
/// change's, however far apart the devices' clocks are: what a device writes after another
/// device's edit wins over that edit.
public struct HybridTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The physical time in the upper 48 bits, the counter in the lower 16.
    public let rawValue: Int64

    /// A timestamp from its packed representation.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// A timestamp from its parts; `counter` is kept to 16 bits.
    public init(milliseconds: Int64, counter: Int64) {
        rawValue = (milliseconds << 16) | (counter & 0xFFFF)
    }

    /// The physical part, in milliseconds since 1970.
    public var milliseconds: Int64 { rawValue >> 16 }
    /// The logical part.
    public var counter: Int64 { rawValue & 0xFFFF }

    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "\(milliseconds).\(counter)" }
}
