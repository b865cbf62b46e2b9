/// How values of one Swift type are stored in a column.
enum ValueConversion {
    /// A type the library converts itself.
    case standard(any StandardValue.Type)
    /// Another `DatabaseValueConvertible` type.
    case convertible(any DatabaseValueConvertible.Type)
    /// Any other `Codable` type: stored as JSON text.
    case json

    /// The conversion of `type`, found by a run-time conformance check.
    init(of type: Any.Type) {
        if let standard = type as? any StandardValue.Type {
            self = .standard(standard)
        } else if let convertible = type as? any DatabaseValueConvertible.Type {
            self = .convertible(convertible)
        } else {
            self = .json
        }
    }
}

/// The conversion of the type last seen at each position of a row.
///
/// The rows of one model put the same types at the same positions, so they pay for the
/// run-time conformance check once per position instead of once per value.
struct ValueConversionCache {
    private var entries: [(type: ObjectIdentifier, conversion: ValueConversion)?] = []

    /// The conversion of `type` at `position` (0-based).
    mutating func conversion(of type: Any.Type, at position: Int) -> ValueConversion {
        let identifier = ObjectIdentifier(type)
        if position < entries.count, let entry = entries[position], entry.type == identifier {
            return entry.conversion
        }
        let conversion = ValueConversion(of: type)
        if position >= entries.count {
            entries.append(contentsOf: repeatElement(nil, count: position + 1 - entries.count))
        }
        entries[position] = (identifier, conversion)
        return conversion
    }
}
