import Foundation

extension SyncWireChange {
    /// Reads a change in its object spelling, as `init(from:)` reads it.
    init(reading scanner: inout JSONScanner) throws {
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
