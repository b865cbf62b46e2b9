import Foundation

/// A reader of JSON text over its UTF-8 bytes, one value at a time, for readers of the wire
/// format that need more speed than `JSONDecoder` gives (``SyncSnapshotPage/init(json:)``).
///
/// It reads RFC 8259 JSON and nothing more lenient: no comments, no trailing commas, no
/// leading zeros, no byte order mark. Like `JSONDecoder` it refuses text that is not UTF-8,
/// control characters inside strings, lone surrogates in `\u` escapes, numbers a `Double`
/// cannot hold, and nesting deeper than ``depthLimit``. Each refusal is a
/// `DecodingError.dataCorrupted` that names the byte where the text went wrong.
///
/// The scanner reads bytes it does not own: use it only inside the closure that lends them.
struct JSONScanner {
    /// The deepest nesting of arrays and objects read, as `JSONDecoder`'s.
    static let depthLimit = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The value that `read` reads from `json`, which must hold nothing after it but whitespace.
    static func read<Value>(_ json: Data, _ read: (inout JSONScanner) throws -> Value) throws -> Value {
        try json.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
            let value = try read(&scanner)
            try scanner.requireEndOfText()
            return value
        }
    }

    /// An array or object being read: whether its first element or member is still to come.
    struct Container {
        fileprivate var isFirst = true
    }

    // MARK: Structure

    /// Consumes `[` and returns the array to read with ``nextElement(in:)``.
    mutating func beginArray() throws -> Container {
        try begin(UInt8(ascii: "["), "an array")
        return Container()
    }

    /// Whether another element of `array` follows, which the caller then reads; at the array's
    /// end, consumes `]` and returns `false`.
    mutating func nextElement(in array: inout Container) throws -> Bool {
        try next(in: &array, closing: UInt8(ascii: "]"))
    }

    /// Requires another element of `array`, which the caller then reads; `what` names it in the error.
    mutating func requireElement(in array: inout Container, _ what: String) throws {
        guard try nextElement(in: &array) else { throw failure("the array ends before \(what)") }
    }

    /// Requires `array` to end here; `what` names the array in the error.
    mutating func requireEnd(of array: inout Container, _ what: String) throws {
        guard try !nextElement(in: &array) else { throw failure("\(what) has more elements") }
    }

    /// Consumes `{` and returns the object to read with ``nextKey(in:)``.
    mutating func beginObject() throws -> Container {
        try begin(UInt8(ascii: "{"), "an object")
        return Container()
    }

    /// The key of `object`'s next member, its `:` consumed so that the caller reads the value;
    /// at the object's end, consumes `}` and returns `nil`.
    mutating func nextKey(in object: inout Container) throws -> String? {
        guard try next(in: &object, closing: UInt8(ascii: "}")) else { return nil }
        guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key") }
        let key = try readString()
        try consume(UInt8(ascii: ":"), "a colon")
        return key
    }

    /// Reads the value of the member just named into `slot`, which must be empty: a member
    /// given twice is refused (`JSONDecoder` takes the first, a reader of the last would differ).
    mutating func readMember<Value>(into slot: inout Value?, _ read: (inout JSONScanner) throws -> Value) throws {
        guard slot == nil else { throw failure("a member given twice") }
        slot = try read(&self)
    }

    /// Requires the text to end here, but for whitespace.
    mutating func requireEndOfText() throws {
        guard peek() == nil else { throw failure("the JSON goes on after its value") }
    }

    private mutating func begin(_ opening: UInt8, _ what: String) throws {
        try consume(opening, what)
        depth += 1
        guard depth <= Self.depthLimit else { throw failure("the JSON nests deeper than \(Self.depthLimit)") }
    }

    private mutating func next(in container: inout Container, closing: UInt8) throws -> Bool {
        let wasFirst = container.isFirst
        container.isFirst = false
        let byte = peek()
        if byte == closing {
            position += 1
            depth -= 1
            return false
        }
        if wasFirst { return true }
        guard byte == UInt8(ascii: ",") else { throw failure("expected a comma or the end of the array or object") }
        position += 1
        return true
    }

    // MARK: Values

    /// Whether `null` comes next; consumes it if so.
    mutating func readNull() throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try consumeLiteral("null")
        return true
    }

    /// `true` or `false`.
    mutating func readBool() throws -> Bool {
        switch peek() {
        case UInt8(ascii: "t"):
            try consumeLiteral("true")
            return true
        case UInt8(ascii: "f"):
            try consumeLiteral("false")
            return false
        default: throw failure("expected true or false")
        }
    }

    /// Whether a string comes next.
    mutating func isAtString() -> Bool { peek() == UInt8(ascii: "\"") }

    /// A string, its escapes resolved.
    mutating func readString() throws -> String {
        let content = try scanString()
        guard content.isEscaped else { return try text(content.bytes, isASCII: content.isASCII) }
        return try text(unescaping: content.bytes)
    }

    /// A string that spells a 64-bit integer as `Int64(_:)` reads it (an optional sign, then
    /// decimal digits); reads its bytes in place.
    mutating func readIntegerString() throws -> Int64 {
        let content = try scanString()
        let value = content.isEscaped ? Int64(try text(unescaping: content.bytes)) : Self.integer(spelledBy: content.bytes)
        guard let value else { throw failure("expected a 64-bit integer in a string") }
        return value
    }

    /// A number without a fraction or an exponent that fits 64 bits.
    mutating func readInteger() throws -> Int64 {
        let number = try scanNumber()
        guard !number.hasFractionOrExponent, let value = Self.integer(spelledBy: number.bytes) else {
            throw failure("expected a 64-bit integer")
        }
        return value
    }

    /// A number without a fraction or an exponent that fits `Int` (32 bits on watchOS).
    mutating func readInt() throws -> Int {
        guard let value = Int(exactly: try readInteger()) else { throw failure("an integer out of Int's range") }
        return value
    }

    /// An array whose elements `element` reads.
    mutating func readArray<Element>(_ element: (inout JSONScanner) throws -> Element) throws -> [Element] {
        var array = try beginArray()
        var elements: [Element] = []
        while try nextElement(in: &array) { elements.append(try element(&self)) }
        return elements
    }

    /// A number that a `Double` holds: neither so large that it rounds to an infinity nor so
    /// small that it rounds to zero, both of which `JSONDecoder` refuses.
    mutating func readNumber() throws -> Double {
        let number = try scanNumber()
        // JSONDecoder also refuses a zero with an exponent and no fraction, `0e1`.
        guard !number.isZeroWithExponent, let value = Double(String(decoding: number.bytes, as: UTF8.self)), value.isFinite,
            value != 0 || !number.hasNonzeroDigit
        else { throw failure("the number is not one a Double holds") }
        return value
    }

    /// Reads over the next value, whatever it is.
    mutating func skipValue() throws {
        switch peek() {
        case UInt8(ascii: "\""): _ = try readString()  // checked as JSONDecoder checks every string
        case UInt8(ascii: "["):
            var array = try beginArray()
            while try nextElement(in: &array) { try skipValue() }
        case UInt8(ascii: "{"):
            var object = try beginObject()
            while try nextKey(in: &object) != nil { try skipValue() }
        case UInt8(ascii: "t"): try consumeLiteral("true")
        case UInt8(ascii: "f"): try consumeLiteral("false")
        case UInt8(ascii: "n"): try consumeLiteral("null")
        default: _ = try readNumber()
        }
    }

    // MARK: Bytes

    /// The next byte after whitespace, not consumed; `nil` at the end of the text.
    private mutating func peek() -> UInt8? {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return bytes[position]
            }
        }
        return nil
    }

    private mutating func consume(_ byte: UInt8, _ what: String) throws {
        guard peek() == byte else { throw failure("expected \(what)") }
        position += 1
    }

    private mutating func consumeLiteral(_ literal: StaticString) throws {
        _ = peek()
        let count = literal.utf8CodeUnitCount
        guard let base = bytes.baseAddress, bytes.count - position >= count, memcmp(base + position, literal.utf8Start, count) == 0
        else { throw failure("expected \(literal)") }
        position += count
    }

    /// A string's content between its quotes, consumed with them: whether it holds an escape,
    /// and whether every byte is ASCII.
    private mutating func scanString() throws -> (bytes: UnsafeBufferPointer<UInt8>, isEscaped: Bool, isASCII: Bool) {
        try consume(UInt8(ascii: "\""), "a string")
        let start = position
        var isEscaped = false
        var allBits: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                let content = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return (content, isEscaped, allBits < 0x80)
            case UInt8(ascii: "\\"):
                isEscaped = true
                position += 2
            case 0..<0x20:
                throw failure("a control character in a string")
            default:
                allBits |= byte
                position += 1
            }
        }
        position = bytes.count
        throw failure("the string does not end")
    }

    /// A number as JSON spells it: `-`, digits without a leading zero, then a fraction and an
    /// exponent, each optional.
    private struct Number {
        let bytes: UnsafeBufferPointer<UInt8>
        let hasFractionOrExponent: Bool
        /// Whether a digit before the exponent is not 0.
        let hasNonzeroDigit: Bool
        /// Whether it is `0` or `-0` followed at once by an exponent.
        let isZeroWithExponent: Bool
    }

    /// The next number, consumed.
    private mutating func scanNumber() throws -> Number {
        _ = peek()
        let start = position
        skip(UInt8(ascii: "-"))
        let isZero = skip(UInt8(ascii: "0"))
        var hasNonzeroDigit = isZero ? false : try digits()
        let hasFraction = skip(UInt8(ascii: "."))
        if hasFraction { hasNonzeroDigit = try digits() || hasNonzeroDigit }
        let hasExponent = skip(UInt8(ascii: "e")) || skip(UInt8(ascii: "E"))
        if hasExponent {
            if !skip(UInt8(ascii: "+")) { skip(UInt8(ascii: "-")) }
            try digits()
        }
        return Number(
            bytes: UnsafeBufferPointer(rebasing: bytes[start..<position]), hasFractionOrExponent: hasFraction || hasExponent,
            hasNonzeroDigit: hasNonzeroDigit, isZeroWithExponent: isZero && !hasFraction && hasExponent)
    }

    @discardableResult
    private mutating func skip(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// One decimal digit or more; returns whether one is not 0.
    @discardableResult
    private mutating func digits() throws -> Bool {
        let start = position
        var hasNonzeroDigit = false
        while position < bytes.count, Self.isDigit(bytes[position]) {
            hasNonzeroDigit = hasNonzeroDigit || bytes[position] != UInt8(ascii: "0")
            position += 1
        }
        guard position > start else { throw failure("expected a digit") }
        return hasNonzeroDigit
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The integer that `spelled` spells as `Int64(_:)` reads text: an optional `+` or `-`,
    /// then one decimal digit or more; `nil` for anything else and what overflows.
    private static func integer(spelledBy spelled: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        let isNegative = spelled.first == UInt8(ascii: "-")
        if isNegative || spelled.first == UInt8(ascii: "+") { index = 1 }
        guard index < spelled.count else { return nil }
        // Accumulated below zero, where Int64.min fits.
        var value: Int64 = 0
        while index < spelled.count {
            let digit = spelled[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, underflow) = times10.subtractingReportingOverflow(Int64(digit))
            guard !overflow, !underflow else { return nil }
            value = next
            index += 1
        }
        if isNegative { return value }
        return value == .min ? nil : -value
    }

    // MARK: Text

    /// The text of UTF-8 bytes; throws when they are not UTF-8.
    private func text(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool) throws -> String {
        let text = String(decoding: utf8, as: UTF8.self)
        // Decoding replaces what is not UTF-8 with U+FFFD: the bytes then differ.
        guard isASCII || text.utf8.elementsEqual(utf8) else { throw failure("a string that is not UTF-8") }
        return text
    }

    /// The text of a string's content with escapes.
    private func text(unescaping content: UnsafeBufferPointer<UInt8>) throws -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(content.count)
        var index = 0
        while index < content.count {
            let byte = content[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                continue
            }
            guard index < content.count else { throw failure("an escape that ends the string") }
            let escaped = content[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"): utf8.append(contentsOf: try unicodeEscape(in: content, at: &index).utf8)
            default: throw failure("an unknown escape \\\(Character(Unicode.Scalar(escaped)))")
            }
        }
        return try utf8.withUnsafeBufferPointer { try text($0, isASCII: false) }
    }

    /// The scalar of a `\u` escape whose hex digits start at `index`, with the low surrogate's
    /// escape that must follow a high one; moves `index` past them.
    private func unicodeEscape(in content: UnsafeBufferPointer<UInt8>, at index: inout Int) throws -> Unicode.Scalar {
        let unit = try hexUnit(in: content, at: &index)
        var scalar = UInt32(unit)
        if UTF16.isLeadSurrogate(unit) {
            guard content.count - index >= 6, content[index] == UInt8(ascii: "\\"), content[index + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate without a low one")
            }
            index += 2
            let low = try hexUnit(in: content, at: &index)
            guard UTF16.isTrailSurrogate(low) else { throw failure("a high surrogate without a low one") }
            scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
        }
        guard let value = Unicode.Scalar(scalar) else { throw failure("a low surrogate without a high one") }
        return value
    }

    /// The UTF-16 code unit that four hex digits at `index` spell; moves `index` past them.
    private func hexUnit(in content: UnsafeBufferPointer<UInt8>, at index: inout Int) throws -> UInt16 {
        guard content.count - index >= 4 else { throw failure("a \\u escape of fewer than four hex digits") }
        var unit: UInt16 = 0
        for byte in content[index..<(index + 4)] {
            guard let digit = Self.hexDigit(byte) else { throw failure("a \\u escape of fewer than four hex digits") }
            unit = unit << 4 | UInt16(digit)
        }
        index += 4
        return unit
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Errors

    /// The error for what the text holds at the current byte.
    func failure(_ problem: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "JSON byte \(position): \(problem)"))
    }
}
