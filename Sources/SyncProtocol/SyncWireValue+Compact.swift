import Foundation

extension SyncWireValue {
    /// A value's compact spelling, in snapshot pages: `null`, or its kind and payload as a pair,
    /// `["integer","-42"]`, `["real",1.5]`, `["real","nan"]`, `["text","…"]`, `["blob","<base64>"]`.
    ///
    /// A pair reads much faster than an object: a JSON reader gathers an object's keys first.
    public struct Compact: Sendable, Hashable, Codable {
        /// The value.
        public var value: SyncWireValue

        /// The compact spelling of `value`.
        public init(_ value: SyncWireValue) {
            self.value = value
        }

        public init(from decoder: any Decoder) throws {
            if try decoder.singleValueContainer().decodeNil() {
                value = .null
                return
            }
            var pair = try decoder.unkeyedContainer()
            value = try Self.value(pair: &pair)
        }

        /// Reads the value spelled next in `container`: `null` or a pair. Faster than decoding
        /// a `Compact` there, which sets a decoder up for it.
        static func value(from container: inout some UnkeyedDecodingContainer) throws -> SyncWireValue {
            if try container.decodeNil() { return .null }
            var pair = try container.nestedUnkeyedContainer()
            return try value(pair: &pair)
        }

        /// The value a pair spells, `[kind, payload]`.
        private static func value(pair: inout some UnkeyedDecodingContainer) throws -> SyncWireValue {
            let name = try pair.decode(String.self)
            guard let kind = Kind(stringValue: name) else {
                throw DecodingError.dataCorruptedError(in: pair, debugDescription: "\"\(name)\" is not integer, real, text or blob")
            }
            let payload = try (try? pair.decode(String.self)).map(Payload.string) ?? .number(pair.decode(Double.self))
            guard pair.isAtEnd else { throw DecodingError.dataCorruptedError(in: pair, debugDescription: "a value is [kind, payload]") }
            return try SyncWireValue(kind, payload, codingPath: pair.codingPath)
        }

        public func encode(to encoder: any Encoder) throws {
            guard let (kind, payload) = value.spelled else {
                var container = encoder.singleValueContainer()
                try container.encodeNil()
                return
            }
            var pair = encoder.unkeyedContainer()
            try pair.encode(kind.rawValue)
            switch payload {
            case .string(let string): try pair.encode(string)
            case .number(let number): try pair.encode(number)
            }
        }

        /// Each kind's object spelling up to its payload, `{"text":`, and its pair's, `["text",`.
        private static let spellings = [Kind.integer, .real, .text, .blob].map { kind in
            (Array("{\"\(kind.rawValue)\":".utf8), Array("[\"\(kind.rawValue)\",".utf8))
        }

        /// Appends to `json` the compact spelling of a value spelled as JSON by ``SyncWireValue``'s
        /// `encode(to:)` (`{"text":"…"}`), without decoding it: the object's braces become the
        /// pair's brackets and its colon a comma; `null` stays. Another spelling is decoded and
        /// encoded again.
        public static func appendJSON(fromObjectJSON object: UnsafeRawBufferPointer, to json: inout [UInt8]) throws {
            if object.elementsEqual("null".utf8) {
                json.append(contentsOf: object)
                return
            }
            for (prefix, pairStart) in spellings
            where object.count > prefix.count && object.starts(with: prefix) && object.last == UInt8(ascii: "}") {
                json.append(contentsOf: pairStart)
                json.append(contentsOf: object[prefix.count..<(object.count - 1)])
                json.append(UInt8(ascii: "]"))
                return
            }
            let value = try JSONDecoder().decode(SyncWireValue.self, from: Data(object))
            json.append(contentsOf: try JSONEncoder().encode(Compact(value)))
        }
    }
}
