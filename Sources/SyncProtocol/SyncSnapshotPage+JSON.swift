import Foundation

extension SyncSnapshotPage {
    /// Reads a page from its JSON, as `JSONDecoder` reads it through `Decodable`, several times
    /// faster: a new device reads its account's whole state this way, page after page, and
    /// `JSONDecoder`'s containers cost more of its CPU than anything else on that path.
    ///
    /// Members other than the page's are skipped, as `JSONDecoder` skips them. It is stricter
    /// only where the server never writes otherwise: integers must be spelled as integers
    /// (`1`, not `1.0`), and a row's, cell's, stamp's and value's arrays hold exactly their
    /// elements.
    ///
    /// - Throws: `DecodingError.dataCorrupted`, naming the byte, for what is not a page's JSON.
    public init(json: Data) throws {
        self = try JSONScanner.read(json) { try SyncSnapshotPage(reading: &$0) }
    }

    private init(reading scanner: inout JSONScanner) throws {
        var (format, schemaVersion, cursor): (Int?, Int64?, Int64?)
        var (devices, rows): ([String]?, [SyncSnapshotRow]?)
        var next: SyncSnapshotPosition??
        var object = try scanner.beginObject()
        while let key = try scanner.nextKey(in: &object) {
            switch key {
            case "format": try scanner.readMember(into: &format) { try $0.readInt() }
            case "schemaVersion": try scanner.readMember(into: &schemaVersion) { try $0.readInteger() }
            case "cursor": try scanner.readMember(into: &cursor) { try $0.readInteger() }
            case "devices": try scanner.readMember(into: &devices) { try $0.readArray { try $0.readString() } }
            case "rows": try scanner.readMember(into: &rows) { try $0.readArray { try SyncSnapshotRow(reading: &$0) } }
            case "next": try scanner.readMember(into: &next) { try $0.readNull() ? nil : try SyncSnapshotPosition(reading: &$0) }
            default: try scanner.skipValue()
            }
        }
        guard let format, let schemaVersion, let cursor, let devices, let rows else {
            throw scanner.failure("a page has its format, schemaVersion, cursor, devices and rows")
        }
        self.init(schemaVersion: schemaVersion, cursor: cursor, devices: devices, rows: rows, next: next ?? nil)
        self.format = format
    }
}

extension SyncSnapshotPosition {
    fileprivate init(reading scanner: inout JSONScanner) throws {
        var (table, key): (String?, String?)
        var object = try scanner.beginObject()
        while let member = try scanner.nextKey(in: &object) {
            switch member {
            case "table": try scanner.readMember(into: &table) { try $0.readString() }
            case "key": try scanner.readMember(into: &key) { try $0.readString() }
            default: try scanner.skipValue()
            }
        }
        guard let table, let key else { throw scanner.failure("a position has its table and key") }
        self.init(table: table, key: key)
    }
}

extension SyncSnapshotRow {
    /// `[table, key, deleted, cell, cell, …]`.
    fileprivate init(reading scanner: inout JSONScanner) throws {
        var row = try scanner.beginArray()
        try scanner.requireElement(in: &row, "a row's table")
        let table = try scanner.readString()
        try scanner.requireElement(in: &row, "a row's key")
        let key = try SyncWireValue(readingPair: &scanner)
        try scanner.requireElement(in: &row, "a row's delete")
        let deleted = try scanner.readNull() ? nil : try SyncSnapshotStamp(reading: &scanner)
        var cells: [SyncSnapshotCell] = []
        while try scanner.nextElement(in: &row) { cells.append(try SyncSnapshotCell(reading: &scanner)) }
        self.init(table: table, key: key, deleted: deleted, cells: cells)
    }
}

extension SyncSnapshotCell {
    /// `[column, value, "hlc", device]`.
    fileprivate init(reading scanner: inout JSONScanner) throws {
        var cell = try scanner.beginArray()
        try scanner.requireElement(in: &cell, "a cell's column")
        let column = try scanner.readString()
        try scanner.requireElement(in: &cell, "a cell's value")
        let value = try SyncWireValue(readingPair: &scanner)
        let stamp = try SyncSnapshotStamp(readingElementsOf: &cell, in: &scanner)
        try scanner.requireEnd(of: &cell, "a cell")
        self.init(column: column, value: value, stamp: stamp)
    }
}

extension SyncSnapshotStamp {
    /// `["hlc", device]`.
    fileprivate init(reading scanner: inout JSONScanner) throws {
        var stamp = try scanner.beginArray()
        try self.init(readingElementsOf: &stamp, in: &scanner)
        try scanner.requireEnd(of: &stamp, "a stamp")
    }

    /// Reads the clock and the device index, the next two elements of `array`.
    fileprivate init(readingElementsOf array: inout JSONScanner.Container, in scanner: inout JSONScanner) throws {
        try scanner.requireElement(in: &array, "a stamp's clock")
        let hlc = try scanner.readIntegerString()
        try scanner.requireElement(in: &array, "a stamp's device")
        self.init(hlc: hlc, device: try scanner.readInt())
    }
}
