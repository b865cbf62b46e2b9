/// One change as it travels: its identity (device and that device's sequence number), the row
/// it changes, what it does and its hybrid logical clock reading.
///
/// In JSON: `{"device":"…","sequence":7,"table":"items","key":{"text":"…"},"op":"set",
/// "column":"title","value":{"text":"…"},"hlc":"…"}`, or `"op":"delete"` without column and value.
/// The clock is a decimal string: its 64 bits do not fit a JSON number in many readers.
public struct SyncWireChange: Sendable, Hashable, Codable {
    /// What the change does to its row.
    public enum Operation: Sendable, Hashable {
        /// The column took the value.
        case set(column: String, value: SyncWireValue)
        /// The row was deleted.
        case delete
    }

    /// The id of the device that made the change.
    public var device: String
    /// The change's place in that device's outbox, growing from 1.
    public var sequence: Int64
    /// The synced table's name.
    public var table: String
    /// The row's primary key.
    public var key: SyncWireValue
    /// What the change does.
    public var operation: Operation
    /// The hybrid logical clock's packed reading (milliseconds in the upper 48 bits).
    public var hlc: Int64

    /// The column the change sets, or `nil` for a delete.
    public var column: String? {
        if case .set(let column, _) = operation { column } else { nil }
    }

    /// A change from its parts.
    public init(device: String, sequence: Int64, table: String, key: SyncWireValue, operation: Operation, hlc: Int64) {
        self.device = device
        self.sequence = sequence
        self.table = table
        self.key = key
        self.operation = operation
        self.hlc = hlc
    }

    private enum CodingKeys: String, CodingKey { case device, sequence, table, key, op, column, value, hlc }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = try container.decode(String.self, forKey: .device)
        sequence = try container.decode(Int64.self, forKey: .sequence)
        table = try container.decode(String.self, forKey: .table)
        key = try container.decode(SyncWireValue.self, forKey: .key)
        guard let hlc = Int64(try container.decode(String.self, forKey: .hlc)) else {
            throw DecodingError.dataCorruptedError(forKey: .hlc, in: container, debugDescription: "not a 64-bit integer")
        }
        self.hlc = hlc
        switch try container.decode(String.self, forKey: .op) {
        case "set":
            operation = .set(
                column: try container.decode(String.self, forKey: .column),
                value: try container.decode(SyncWireValue.self, forKey: .value))
        case "delete": operation = .delete
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "unknown operation \"\(other)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(device, forKey: .device)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(table, forKey: .table)
        try container.encode(key, forKey: .key)
        switch operation {
        case .set(let column, let value):
            try container.encode("set", forKey: .op)
            try container.encode(column, forKey: .column)
            try container.encode(value, forKey: .value)
        case .delete: try container.encode("delete", forKey: .op)
        }
        try container.encode(String(hlc), forKey: .hlc)
    }
}
