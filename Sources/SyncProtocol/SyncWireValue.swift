import Foundation

/// A value of one of SQLite's storage classes, as it travels in JSON.
///
/// JSON cannot say every value exactly, so each kind has its own spelling: `null`,
/// `{"integer":"-42"}` (a string: JSON numbers lose 64-bit integers in many readers),
/// `{"real":1.5}` (`"inf"`, `"-inf"` or `"nan"` where JSON has no number), `{"text":"…"}`
/// and `{"blob":"<base64>"}`. Snapshot pages spell the same kind and payload as a pair,
/// `["integer","-42"]` (see ``SyncWireValue/Compact``).
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

    enum Kind: String, CodingKey { case integer, real, text, blob }

    /// A payload as JSON spells it: a string, or a number (a finite real's only).
    enum Payload {
        case string(String)
        case number(Double)
    }

    /// Whether both are the same kind with the same payload, texts compared by their UTF-8
    /// bytes as SQLite compares them: String's `==` equates canonically equivalent texts
    /// (`"é"` and `"e\u{301}"`), which are the keys of two rows in SQLite, on the server and
    /// side by side in one snapshot page.
    public static func == (lhs: SyncWireValue, rhs: SyncWireValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        case (.text(let a), .text(let b)): a.hasSameUTF8(as: b)
        case (.blob(let a), .blob(let b)): a == b
        default: false
        }
    }

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
        let payload =
            try (try? container.decode(String.self, forKey: kind)).map(Payload.string)
            ?? .number(container.decode(Double.self, forKey: kind))
        self = try Self(kind, payload, codingPath: container.codingPath + [kind])
    }

    public func encode(to encoder: any Encoder) throws {
        guard let (kind, payload) = spelled else {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
            return
        }
        var container = encoder.container(keyedBy: Kind.self)
        switch payload {
        case .string(let string): try container.encode(string, forKey: kind)
        case .number(let number): try container.encode(number, forKey: kind)
        }
    }

    /// The value of `kind` that `payload` spells; throws when it spells none.
    init(_ kind: Kind, _ payload: Payload, codingPath: @autoclosure () -> [any CodingKey]) throws {
        let value: SyncWireValue? =
            switch (kind, payload) {
            case (.integer, .string(let digits)): Int64(digits).map(SyncWireValue.integer)
            case (.real, .number(let number)): .real(number)
            case (.real, .string(let spelled)): Self.nonFiniteReals[spelled].map(SyncWireValue.real)
            case (.text, .string(let text)): .text(text)
            case (.blob, .string(let base64)): Data(base64Encoded: base64).map(SyncWireValue.blob)
            default: nil
            }
        guard let value else {
            let expected = [
                Kind.integer: "a 64-bit integer in a string", .real: "a number, inf, -inf or nan", .text: "a string", .blob: "base64",
            ]
            let description = "\(kind.rawValue) is not \(expected[kind] ?? "")"
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: description))
        }
        self = value
    }

    /// The kind and payload that spell the value, `nil` for `NULL`.
    var spelled: (kind: Kind, payload: Payload)? {
        switch self {
        case .null: nil
        case .integer(let value): (.integer, .string(String(value)))
        case .real(let value) where value.isNaN: (.real, .string("nan"))
        case .real(let value) where value.isInfinite: (.real, .string(value < 0 ? "-inf" : "inf"))
        case .real(let value): (.real, .number(value))
        case .text(let value): (.text, .string(value))
        case .blob(let value): (.blob, .string(value.base64EncodedString()))
        }
    }
}
