/// One page of an account's current state, for a device that has no cursor yet: instead of
/// every change since the beginning, each row's winning cell per column and its latest delete,
/// as of the server sequence ``SyncSnapshotPage/cursor``.
///
/// Pages follow each other in (table, key) order: a device asks for the next one with
/// ``SyncSnapshotPage/cursor`` and ``SyncSnapshotPage/next``, and pulls changes after the
/// cursor once `next` is `nil`. Every page of one snapshot describes the state at the same
/// cursor, so that a change committed while the pages are read comes with the pulls that
/// follow, once.
///
/// Compact JSON: a row is an array `[table, key, deleted, cell, cell, …]`, a cell
/// `[column, value, "hlc", device]` and `deleted` is `null` or `["hlc", device]`, where
/// `device` indexes ``SyncSnapshotPage/devices``; keys and values are spelled as pairs
/// (``SyncWireValue/Compact``).
public struct SyncSnapshotPage: Sendable, Hashable, Codable {
    /// The wire format.
    public var format: Int
    /// The schema version the state is in (the server's).
    public var schemaVersion: Int64
    /// The server sequence the snapshot is taken at: the cursor to pull from once it is applied.
    public var cursor: Int64
    /// The ids of the devices whose writes the page holds; cells and deletes name them by index.
    public var devices: [String]
    /// The rows, in (table, key) order.
    public var rows: [SyncSnapshotRow]
    /// Where the next page starts, or `nil` when this page is the snapshot's last.
    public var next: SyncSnapshotPosition?

    /// A page in this build's format.
    public init(schemaVersion: Int64, cursor: Int64, devices: [String], rows: [SyncSnapshotRow], next: SyncSnapshotPosition?) {
        self.format = SyncWireFormat.version
        self.schemaVersion = schemaVersion
        self.cursor = cursor
        self.devices = devices
        self.rows = rows
        self.next = next
    }
}

/// Where a snapshot page ended: the last row's table and the server's spelling of its key.
public struct SyncSnapshotPosition: Sendable, Hashable, Codable {
    /// The last row's table.
    public var table: String
    /// The last row's key as the server stores it (opaque to devices).
    public var key: String

    /// A position from its parts.
    public init(table: String, key: String) {
        self.table = table
        self.key = key
    }
}

/// A write's stamp in a snapshot: its hybrid logical clock reading and its device, by index
/// into ``SyncSnapshotPage/devices``.
public struct SyncSnapshotStamp: Sendable, Hashable, Codable {
    /// The hybrid logical clock's packed reading.
    public var hlc: Int64
    /// The index of the writing device in the page's ``SyncSnapshotPage/devices``.
    public var device: Int

    /// A stamp from its parts.
    public init(hlc: Int64, device: Int) {
        self.hlc = hlc
        self.device = device
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        hlc = try Self.decodeClock(from: &container)
        device = try container.decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(String(hlc))
        try container.encode(device)
    }

    /// A clock spelled as a decimal string (64 bits do not fit a JSON number in many readers).
    static func decodeClock(from container: inout some UnkeyedDecodingContainer) throws -> Int64 {
        guard let hlc = Int64(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a 64-bit integer")
        }
        return hlc
    }
}

/// One cell of a snapshot row: the column's winning value and the stamp it won with.
public struct SyncSnapshotCell: Sendable, Hashable, Codable {
    /// The column.
    public var column: String
    /// Its value.
    public var value: SyncWireValue
    /// The write that set it.
    public var stamp: SyncSnapshotStamp

    /// A cell from its parts.
    public init(column: String, value: SyncWireValue, stamp: SyncSnapshotStamp) {
        self.column = column
        self.value = value
        self.stamp = stamp
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        try self.init(from: &container)
    }

    /// Reads the cell's fields from its own array's container.
    init(from container: inout some UnkeyedDecodingContainer) throws {
        column = try container.decode(String.self)
        value = try SyncWireValue.Compact.value(from: &container)
        stamp = SyncSnapshotStamp(hlc: try SyncSnapshotStamp.decodeClock(from: &container), device: try container.decode(Int.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(column)
        try container.encode(SyncWireValue.Compact(value))
        try container.encode(String(stamp.hlc))
        try container.encode(stamp.device)
    }
}

/// One row of a snapshot: its cells and its latest delete (the merge rule needs both: a delete
/// hides the cells written before it).
public struct SyncSnapshotRow: Sendable, Hashable, Codable {
    /// The synced table's name.
    public var table: String
    /// The row's primary key.
    public var key: SyncWireValue
    /// The row's latest delete, if it was ever deleted.
    public var deleted: SyncSnapshotStamp?
    /// Its columns' winning cells.
    public var cells: [SyncSnapshotCell]

    /// A row from its parts.
    public init(table: String, key: SyncWireValue, deleted: SyncSnapshotStamp?, cells: [SyncSnapshotCell]) {
        self.table = table
        self.key = key
        self.deleted = deleted
        self.cells = cells
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        try self.init(from: &container)
    }

    /// Reads the row's fields from its own array's container.
    init(from container: inout some UnkeyedDecodingContainer) throws {
        table = try container.decode(String.self)
        key = try SyncWireValue.Compact.value(from: &container)
        deleted = try container.decodeNil() ? nil : try container.decode(SyncSnapshotStamp.self)
        var cells: [SyncSnapshotCell] = []
        while !container.isAtEnd {
            var cell = try container.nestedUnkeyedContainer()
            cells.append(try SyncSnapshotCell(from: &cell))
        }
        self.cells = cells
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(table)
        try container.encode(SyncWireValue.Compact(key))
        if let deleted { try container.encode(deleted) } else { try container.encodeNil() }
        for cell in cells { try container.encode(cell) }
    }
}
