import Foundation

extension SyncWireValue {
    /// Reads a value from its JSON in the object spelling (`null`, `{"text":"…"}`), as
    /// `JSONDecoder` reads it through `Decodable`, without a decoder's cost: a server reads
    /// the key and value of every change it answers a pull with.
    ///
    /// - Throws: `DecodingError.dataCorrupted`, naming the byte, for what is not a value's JSON.
    public init(json: Data) throws {
        self = try JSONScanner.read(json) { try SyncWireValue(readingObject: &$0) }
    }

    /// Reads a value in its object spelling, `null` or `{"kind":payload}`, as `init(from:)`
    /// reads it; refuses an object with any other member.
    init(readingObject scanner: inout JSONScanner) throws {
        if try scanner.readNull() {
            self = .null
            return
        }
        var object = try scanner.beginObject()
        guard let name = try scanner.nextKey(in: &object) else { throw scanner.failure("a value has one of integer, real, text, blob") }
        self = try Self(kindNamed: name, reading: &scanner)
        guard try scanner.nextKey(in: &object) == nil else { throw scanner.failure("a value has exactly one of integer, real, text, blob") }
    }

    /// Reads a value in its compact spelling, `null` or `[kind, payload]`
    /// (``SyncWireValue/Compact``).
    init(readingPair scanner: inout JSONScanner) throws {
        if try scanner.readNull() {
            self = .null
            return
        }
        var pair = try scanner.beginArray()
        try scanner.requireElement(in: &pair, "a value's kind")
        let name = try scanner.readString()
        try scanner.requireElement(in: &pair, "a value's payload")
        self = try Self(kindNamed: name, reading: &scanner)
        try scanner.requireEnd(of: &pair, "a value")
    }

    /// The value of the kind `name` whose payload, a string or a number, comes next.
    private init(kindNamed name: String, reading scanner: inout JSONScanner) throws {
        guard let kind = Kind(stringValue: name) else { throw scanner.failure("\"\(name)\" is not integer, real, text or blob") }
        let payload: Payload = scanner.isAtString() ? .string(try scanner.readString()) : .number(try scanner.readNumber())
        do {
            self = try Self(kind, payload, codingPath: [])
        } catch DecodingError.dataCorrupted(let context) {
            throw scanner.failure(context.debugDescription)
        }
    }
}
