import Foundation

extension SyncPullResponse {
    /// Reads an answer from its JSON, as `JSONDecoder` reads it through `Decodable`, several
    /// times faster: a device that was offline catches up through pulls of thousands of changes.
    ///
    /// Members other than the answer's are skipped, as `JSONDecoder` skips them. It is stricter
    /// only where the server never writes otherwise: integers must be spelled as integers
    /// (`1`, not `1.0`), and a value's object holds exactly one member.
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

extension SyncWireChange {
    fileprivate init(reading scanner: inout JSONScanner) throws {
        var (device, table, operation, column): (String?, String?, String?, String?)
        var (sequence, hlc): (Int64?, Int64?)
        var (key, value): (SyncWireValue?, SyncWireValue?)
        var object = try scanner.beginObject()
        while let member = try scanner.nextKey(in: &object) {
            switch member {
            case "device": try scanner.readMember(into: &device) { try $0.readString() }
            case "sequence": try scanner.readMember(into: &sequence) { try $0.readInteger() }
            case "table": try scanner.readMember(into: &table) { try $0.readString() }
            case "key": try scanner.readMember(into: &key) { try SyncWireValue(readingObject: &$0) }
            case "op": try scanner.readMember(into: &operation) { try $0.readString() }
            case "column": try scanner.readMember(into: &column) { try $0.readString() }
            case "value": try scanner.readMember(into: &value) { try SyncWireValue(readingObject: &$0) }
            case "hlc": try scanner.readMember(into: &hlc) { try $0.readIntegerString() }
            default: try scanner.skipValue()
            }
        }
        guard let device, let sequence, let table, let key, let hlc else {
            throw scanner.failure("a change has its device, sequence, table, key and hlc")
        }
        self.init(
            device: device, sequence: sequence, table: table, key: key, operation: try Self.operation(operation, column, value, scanner),
            hlc: hlc)
    }

    private static func operation(_ name: String?, _ column: String?, _ value: SyncWireValue?, _ scanner: JSONScanner) throws -> Operation {
        switch name {
        case "set":
            guard let column, let value else { throw scanner.failure("a set has its column and value") }
            return .set(column: column, value: value)
        case "delete": return .delete
        default: throw scanner.failure("an operation is set or delete")
        }
    }
}
