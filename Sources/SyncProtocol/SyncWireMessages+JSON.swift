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
        var shared: [SyncSharedRow]?
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(in: &object) {
            switch key {
            case "format": try scanner.readMember(into: &format) { try $0.readInt() }
            case "schemaVersion": try scanner.readMember(into: &schemaVersion) { try $0.readInteger() }
            case "changes": try scanner.readMember(into: &changes) { try $0.readArray { try SyncWireChange(reading: &$0) } }
            case "shared": try scanner.readMember(into: &shared) { try $0.readArray { try SyncSharedRow(reading: &$0) } }
            default: try scanner.skipValue()
            }
        }
        guard let format, let schemaVersion, let changes else { throw scanner.failure("a push has its format, schemaVersion and changes") }
        self.init(schemaVersion: schemaVersion, changes: changes, shared: shared ?? [])
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
        var (shared, rows): ([SyncSharedRow]?, [SyncRowState]?)
        var (revoked, granted): ([String]?, [String]?)
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(in: &object) {
            switch key {
            case "format": try scanner.readMember(into: &format) { try $0.readInt() }
            case "schemaVersion": try scanner.readMember(into: &schemaVersion) { try $0.readInteger() }
            case "changes": try scanner.readMember(into: &changes) { try $0.readArray { try SyncWireChange(reading: &$0) } }
            case "cursor": try scanner.readMember(into: &cursor) { try $0.readInteger() }
            case "more": try scanner.readMember(into: &more) { try $0.readBool() }
            case "deviceSequence": try scanner.readMember(into: &deviceSequence) { try $0.readNull() ? nil : try $0.readInteger() }
            case "shared": try scanner.readMember(into: &shared) { try $0.readArray { try SyncSharedRow(reading: &$0) } }
            case "revoked": try scanner.readMember(into: &revoked) { try $0.readArray { try $0.readString() } }
            case "granted": try scanner.readMember(into: &granted) { try $0.readArray { try $0.readString() } }
            case "rows": try scanner.readMember(into: &rows) { try $0.readArray { try SyncRowState(reading: &$0) } }
            default: try scanner.skipValue()
            }
        }
        guard let format, let schemaVersion, let changes, let cursor, let more else {
            throw scanner.failure("a pull answer has its format, schemaVersion, changes, cursor and more")
        }
        self.init(schemaVersion: schemaVersion, changes: changes, cursor: cursor, more: more, deviceSequence: deviceSequence ?? nil)
        self.format = format
        self.shared = shared ?? []
        self.revoked = revoked ?? []
        self.granted = granted ?? []
        self.rows = rows ?? []
    }
}

extension SyncSharedRow {
    /// Reads a shared row in its object spelling, as `init(from:)` reads it.
    init(reading scanner: inout JSONScanner) throws {
        var (table, share): (String?, String?)
        var key: SyncWireValue?
        var object = try scanner.beginObject()
        while let member = try scanner.nextKey(in: &object) {
            switch member {
            case "table": try scanner.readMember(into: &table) { try $0.readString() }
            case "key": try scanner.readMember(into: &key) { try SyncWireValue(readingObject: &$0) }
            case "share": try scanner.readMember(into: &share) { try $0.readString() }
            default: try scanner.skipValue()
            }
        }
        guard let table, let key, let share else { throw scanner.failure("a shared row has its table, key and share") }
        self.init(table: table, key: key, share: share)
    }
}

extension SyncRowState {
    /// Reads a row's state in its object spelling, as `init(from:)` reads it.
    init(reading scanner: inout JSONScanner) throws {
        var table: String?
        var share: String??
        var key: SyncWireValue?
        var changes: [SyncWireChange]?
        var subscriptions: [Int64]??
        var object = try scanner.beginObject()
        while let member = try scanner.nextKey(in: &object) {
            switch member {
            case "table": try scanner.readMember(into: &table) { try $0.readString() }
            case "key": try scanner.readMember(into: &key) { try SyncWireValue(readingObject: &$0) }
            case "share": try scanner.readMember(into: &share) { try $0.readNull() ? nil : try $0.readString() }
            case "changes": try scanner.readMember(into: &changes) { try $0.readArray { try SyncWireChange(reading: &$0) } }
            case "subscriptions":
                try scanner.readMember(into: &subscriptions) { try $0.readNull() ? nil : try $0.readArray { try $0.readInteger() } }
            default: try scanner.skipValue()
            }
        }
        guard let table, let key, let changes else { throw scanner.failure("a row's state has its table, key and changes") }
        self.init(table: table, key: key, share: share ?? nil, changes: changes, subscriptions: subscriptions ?? nil)
    }
}
