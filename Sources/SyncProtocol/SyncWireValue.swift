import Foundation

/// A value of one of SQLite's storage classes, as it travels in JSON.
///
/// JSON cannot say every value exactly, so each kind has its own spelling: `null`,
/// `{"integer":"-42"}` (a string: JSON numbers lose 64-bit integers in many readers),
/// `{"real":1.5}` (`"inf"`, `"-inf"` or `"nan"` where JSON has no number), `{"text":"…"}`
/// and `{"blob":"<base64>"}`.
public enum SyncWireValue: Sendable, Hashable, Codable {
    /// SQL `NULL`.
    case null
    /// A signed 64-bit integer.
    case integer(Int64)
    /// A 64-bit IEEE floating point number, infinities and NaN included.
    case real(Double)
    /// UTF-8 text, NUL characters included.
    case text(String)
    /// Bytes.
    case blob(Data)

    private enum Kind: String, CodingKey { case integer, real, text, blob }

    private static let nonFiniteReals: [String: Double] = ["inf": .infinity, "-inf": -.infinity, "nan": .nan]

    public init(from decoder: any Decoder) throws {
        if try decoder.singleValueContainer().decodeNil() {
            self = .null
            return
        }
        let container = try decoder.container(keyedBy: Kind.self)
        guard container.allKeys.count == 1, let kind = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a value has exactly one of integer, real, text, blob"))
        }
        switch kind {
        case .integer:
            let digits = try container.decode(String.self, forKey: .integer)
            guard let value = Int64(digits) else {
                throw DecodingError.dataCorruptedError(forKey: .integer, in: container, debugDescription: "not a 64-bit integer")
            }
            self = .integer(value)
        case .real:
            if let spelled = try? container.decode(String.self, forKey: .real) {
                guard let value = Self.nonFiniteReals[spelled] else {
                    throw DecodingError.dataCorruptedError(forKey: .real, in: container, debugDescription: "not inf, -inf or nan")
                }
                self = .real(value)
            } else {
                self = .real(try container.decode(Double.self, forKey: .real))
            }
        case .text: self = .text(try container.decode(String.self, forKey: .text))
        case .blob:
            guard let bytes = Data(base64Encoded: try container.decode(String.self, forKey: .blob)) else {
                throw DecodingError.dataCorruptedError(forKey: .blob, in: container, debugDescription: "not base64")
            }
            self = .blob(bytes)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .null = self {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
            return
        }
        var container = encoder.container(keyedBy: Kind.self)
        switch self {
        case .null: break
        case .integer(let value): try container.encode(String(value), forKey: .integer)
        case .real(let value) where value.isNaN: try container.encode("nan", forKey: .real)
        case .real(let value) where value.isInfinite: try container.encode(value < 0 ? "-inf" : "inf", forKey: .real)
        case .real(let value): try container.encode(value, forKey: .real)
        case .text(let value): try container.encode(value, forKey: .text)
        case .blob(let value): try container.encode(value.base64EncodedString(), forKey: .blob)
        }
    }
}
