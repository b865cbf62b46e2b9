import Foundation
import SQLiteStoreSyncProtocol

/// Writes a ``SyncSnapshotPage``'s JSON from the snapshot query's rows, splicing in the keys
/// and values as the change log stores them (JSON already, written by this server from decoded
/// changes, turned into their compact pairs) instead of decoding and encoding every cell again.
struct SnapshotPageWriter {
    private var rows: [UInt8] = []
    private var devices: [String: Int] = [:]
    private var deviceList: [String] = []
    private var quoted: [String: [UInt8]] = [:]
    private var current: (table: String, key: String)?
    /// The row finished last.
    private var last: (table: String, key: String)?
    private var deleted: [UInt8]?
    private var cells: [UInt8] = []
    /// How many rows the page holds.
    private(set) var rowCount = 0

    /// Adds one query row: a cell of the row (`column` set) or its latest delete; rows come
    /// grouped by (table, key) in the order of their bytes, and a row out of that order is
    /// refused (a row seen twice would reach the device as two).
    mutating func add(table: String, key: String, column: String?, value: String?, hlc: Int64, device: String) throws {
        if current.map({ !Self.sameBytes($0, (table, key)) }) ?? true {
            if let previous = current ?? last, !Self.bytesPrecede(previous, (table, key)) {
                throw SnapshotPageError("the snapshot's rows came out of (table, key) order at \(table) \(key)")
            }
            try finishRow()
            current = (table, key)
        }
        let device = index(of: device)
        if let column, let value {
            cells.append(contentsOf: ",[".utf8)
            cells.append(contentsOf: try quote(column))
            cells.append(UInt8(ascii: ","))
            cells.append(contentsOf: try SyncWireValue.Compact.json(fromObjectJSON: value.utf8))
            cells.append(UInt8(ascii: ","))
            Self.appendStamp(hlc: hlc, device: device, to: &cells)
            cells.append(UInt8(ascii: "]"))
        } else {
            var stamp: [UInt8] = [UInt8(ascii: "[")]
            Self.appendStamp(hlc: hlc, device: device, to: &stamp)
            stamp.append(UInt8(ascii: "]"))
            deleted = stamp
        }
    }

    /// `"hlc",device`: the clock as a decimal string, the device by its index in the page's list.
    private static func appendStamp(hlc: Int64, device: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: String(hlc).utf8)
        bytes.append(contentsOf: "\",".utf8)
        bytes.append(contentsOf: String(device).utf8)
    }

    /// The page's JSON: the rows added, at `cursor`, and `next` when more rows may follow.
    mutating func page(schemaVersion: Int64, cursor: Int64, limit: Int) throws -> Data {
        try finishRow()
        var next = Array("null".utf8)
        if rowCount == limit, let last {
            next = Array(try JSONEncoder().encode(SyncSnapshotPosition(table: last.table, key: last.key)))
        }
        let devices = try JSONEncoder().encode(deviceList)
        var body = Array(
            "{\"format\":\(SyncWireFormat.version),\"schemaVersion\":\(schemaVersion),\"cursor\":\(cursor),\"devices\":".utf8)
        body += devices
        body += Array(",\"rows\":[".utf8) + rows + Array("],\"next\":".utf8) + next + [UInt8(ascii: "}")]
        return Data(body)
    }

    /// Whether two rows are one: the same bytes (String's `==` would equate canonically
    /// equivalent keys that the log stores as two rows).
    private static func sameBytes(_ a: (table: String, key: String), _ b: (table: String, key: String)) -> Bool {
        a.table.utf8.elementsEqual(b.table.utf8) && a.key.utf8.elementsEqual(b.key.utf8)
    }

    /// Whether row `a` comes before row `b` in (table, key) order by bytes, the snapshot's order.
    private static func bytesPrecede(_ a: (table: String, key: String), _ b: (table: String, key: String)) -> Bool {
        if !a.table.utf8.elementsEqual(b.table.utf8) { return a.table.utf8.lexicographicallyPrecedes(b.table.utf8) }
        return a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
    }

    private mutating func finishRow() throws {
        guard let (table, key) = current else { return }
        last = current
        if rowCount > 0 { rows.append(UInt8(ascii: ",")) }
        rows.append(UInt8(ascii: "["))
        rows.append(contentsOf: try quote(table))
        rows.append(UInt8(ascii: ","))
        rows.append(contentsOf: try SyncWireValue.Compact.json(fromObjectJSON: key.utf8))
        rows.append(UInt8(ascii: ","))
        rows.append(contentsOf: deleted ?? Array("null".utf8))
        rows.append(contentsOf: cells)
        rows.append(UInt8(ascii: "]"))
        rowCount += 1
        current = nil
        deleted = nil
        cells.removeAll(keepingCapacity: true)
    }

    private mutating func index(of device: String) -> Int {
        if let index = devices[device] { return index }
        devices[device] = deviceList.count
        deviceList.append(device)
        return deviceList.count - 1
    }

    /// A name as a JSON string, escaped once per distinct name.
    private mutating func quote(_ name: String) throws -> [UInt8] {
        if let quoted = quoted[name] { return quoted }
        let encoded = Array(try JSONEncoder().encode(name))
        quoted[name] = encoded
        return encoded
    }
}
