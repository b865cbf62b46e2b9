import Foundation

extension SyncPushRequest {
    /// Reads a push from its JSON, as `JSONDecoder` reads it through `Decodable`, several times
    /// faster: a server reads every push of every device.
    ///
    /// Members other than the push's are skipped, as `JSONDecoder` skips them. It is stricter
    /// only where a client never writes otherwise: integers must be spelled as integers (`1`,
    /// not `1.0`), a value's object holds exactly one member, and no member is given twice.
    ///
    /// - Throws: `DecodingError.dataCorrupted`, naming the byte, for what is not a push's JSON.
    public init(json: Data) throws {
        self = try JSONScanner.read(json) { try SyncPushRequest(reading: &$0) }
    }

    private init(reading scanner: inout JSONScanner) throws {
        var (format, schemaVersion): (Int?, Int64?)
        var changes: [SyncWireChange]?
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(in: &object) {
            switch key {
            case "format": try scanner.readMember(into: &format) { try $0.readInt() }
            case "schemaVersion": try scanner.readMember(into: &schemaVersion) { try $0.readInteger() }
            case "changes": try scanner.readMember(into: &changes) { try $0.readArray { try SyncWireChange(reading: &$0) } }
            default: try scanner.skipValue()
            }
        }
        guard let format, let schemaVersion, let changes else { throw scanner.failure("a push has its format, schemaVersion and changes") }
        self.init(schemaVersion: schemaVersion, changes: changes)
        self.format = format
    }
}

extension SyncPullResponse {
    /// Reads an answer from its JSON, as `JSONDecoder` reads it through `Decodable`, several
    /// times faster: a device that was offline catches up through pulls of thousands of changes.
    ///
    /// Members other than the answer's are skipped, as `JSONDecoder` skips them. It is stricter
    /// only where the server never writes otherwise: integers must be spelled as integers
    /// (`1`, not `1.0`), a value's object holds exactly one member, and no member is given twice.
    ///
    /// - Throws: `DecodingError.dataCorrupted`, naming the byte, for what is not a pull answer's JSON.
    public init(json: Data) throws {
        self = try JSONScanner.read(json) { try SyncPullResponse(reading: &$0) }
    }

    private init(reading scanner: inout JSONScanner) throws {
        var (format, schemaVersion, cursor, deviceSequence): (Int?, Int64?, Int64?, Int64??)
        var changes: [SyncWireChange]?
        var more: Bool?
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(in: &object) {
            switch key {
            case "format": try scanner.readMember(into: &format) { try $0.readInt() }
            case "schemaVersion": try scanner.readMember(into: &schemaVersion) { try $0.readInteger() }
            case "changes": try scanner.readMember(into: &changes) { try $0.readArray { try SyncWireChange(reading: &$0) } }
            case "cursor": try scanner.readMember(into: &cursor) { try $0.readInteger() }
            case "more": try scanner.readMember(into: &more) { try $0.readBool() }
            case "deviceSequence": try scanner.readMember(into: &deviceSequence) { try $0.readNull() ? nil : try $0.readInteger() }
            default: try scanner.skipValue()
            }
        }
        guard let format, let schemaVersion, let changes, let cursor, let more else {
            throw scanner.failure("a pull answer has its format, schemaVersion, changes, cursor and more")
        }
        self.init(schemaVersion: schemaVersion, changes: changes, cursor: cursor, more: more, deviceSequence: deviceSequence ?? nil)
        self.format = format
    }
}
