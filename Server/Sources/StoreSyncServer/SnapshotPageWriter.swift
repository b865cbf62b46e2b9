import Foundation
import SQLiteStoreSyncProtocol

/// Writes a ``SyncSnapshotPage``'s JSON from the changes of the snapshot query: keeps each
/// row's winning cell per column and its latest delete, and splices in the keys and values as
/// the change log stores them (JSON already, written by this server from decoded changes,
/// turned into their compact pairs) instead of decoding and encoding every cell again.
struct SnapshotPageWriter {
    /// A change's stamp: the merge rule's order, then the server's for equal stamps.
    struct Stamp {
        let hlc: Int64
        let device: String
        /// The change's server sequence: of two changes with the same clock and device, the later wins.
        let sequence: Int64

        /// Whether `self` loses to `other`: a smaller clock, then a device id smaller by bytes, then an earlier change.
        func precedes(_ other: Stamp) -> Bool {
            if hlc != other.hlc { return hlc < other.hlc }
            if !device.hasSameUTF8(as: other.device) { return device.utf8Precedes(other.device) }
            return sequence < other.sequence
        }
    }

    private var rows: [UInt8] = []
    /// Each device's index, by its id's bytes (String's `==` would equate canonically equivalent ids).
    private var devices: [[UInt8]: Int] = [:]
    private var deviceList: [String] = []
    /// The index of the device named last.
    private var lastDevice: Int?
    /// Each name's JSON, by the name's bytes.
    private var quoted: [[UInt8]: [UInt8]] = [:]
    /// The names quoted last, with their JSON: a page's rows name the same few tables and columns over and over.
    private var recentNames: [(name: String, json: [UInt8])] = []
    private static let recentNameLimit = 16
    private var current: (table: String, key: String)?
    /// The row finished last.
    private var last: (table: String, key: String)?
    /// The current row's latest delete.
    private var deleted: Stamp?
    /// The current row's winning cell per column (told apart by bytes, as the log does), with
    /// its value as the log stores it.
    private var cells: [(column: String, value: String, stamp: Stamp)] = []
    /// How many rows the page holds.
    private(set) var rowCount = 0

    /// Adds one change: of the current row, or the first of the next one; a cell (`column` and
    /// `value` set) or a delete. Changes come grouped by (table, key) in the order of their
    /// bytes, and a change out of that order is refused (a row seen twice would reach the
    /// device as two).
    mutating func add(table: String, key: String, column: String?, value: String?, stamp: Stamp) throws {
        if current.map({ !Self.sameBytes($0, (table, key)) }) ?? true {
            if let previous = current ?? last, !Self.bytesPrecede(previous, (table, key)) {
                throw SnapshotPageError("the snapshot's rows came out of (table, key) order at \(table) \(key)")
            }
            try finishRow()
            current = (table, key)
        }
        if let column, let value {
            if let index = cells.firstIndex(where: { $0.column.hasSameUTF8(as: column) }) {
                if cells[index].stamp.precedes(stamp) { cells[index] = (column, value, stamp) }
            } else {
                cells.append((column, value, stamp))
            }
        } else if deleted.map({ $0.precedes(stamp) }) ?? true {
            deleted = stamp
        }
    }

    /// Appends `"hlc",device` to the rows: the clock as a decimal string, the device by its index in the page's list.
    private mutating func appendStamp(_ stamp: Stamp) {
        let device = index(of: stamp.device)
        rows.append(UInt8(ascii: "\""))
        rows.append(contentsOf: String(stamp.hlc).utf8)
        rows.append(contentsOf: "\",".utf8)
        rows.append(contentsOf: String(device).utf8)
    }

    /// The page: its JSON (the rows added, at `cursor`, and `next` when more rows may follow)
    /// and where the next page starts.
    mutating func page(schemaVersion: Int64, cursor: Int64, limit: Int) throws -> SnapshotPageBody {
        try finishRow()
        let position = rowCount == limit ? last.map { SyncSnapshotPosition(table: $0.table, key: $0.key) } : nil
        // Sorted keys: a page is the same bytes whichever process writes it (an encoder's own order is not).
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let next = try position.map { Array(try encoder.encode($0)) } ?? Array("null".utf8)
        let devices = try JSONEncoder().encode(deviceList)
        var body = Array(
            "{\"format\":\(SyncWireFormat.version),\"schemaVersion\":\(schemaVersion),\"cursor\":\(cursor),\"devices\":".utf8)
        body += devices
        body += Array(",\"rows\":[".utf8) + rows + Array("],\"next\":".utf8) + next + [UInt8(ascii: "}")]
        return SnapshotPageBody(json: Data(body), next: position)
    }

    /// Whether two rows are one: the same bytes (String's `==` would equate canonically
    /// equivalent keys that the log stores as two rows).
    private static func sameBytes(_ a: (table: String, key: String), _ b: (table: String, key: String)) -> Bool {
        a.table.hasSameUTF8(as: b.table) && a.key.hasSameUTF8(as: b.key)
    }

    /// Whether row `a` comes before row `b` in (table, key) order by bytes, the snapshot's order.
    private static func bytesPrecede(_ a: (table: String, key: String), _ b: (table: String, key: String)) -> Bool {
        if !a.table.hasSameUTF8(as: b.table) { return a.table.utf8Precedes(b.table) }
        return a.key.utf8Precedes(b.key)
    }

    /// Writes the current row: `[table, key, deleted, cell, …]`, its cells in the order of their columns' bytes.
    private mutating func finishRow() throws {
        guard let (table, key) = current else { return }
        last = current
        if rowCount > 0 { rows.append(UInt8(ascii: ",")) }
        rows.append(UInt8(ascii: "["))
        rows.append(contentsOf: try quote(table))
        rows.append(UInt8(ascii: ","))
        rows.append(contentsOf: try SyncWireValue.Compact.json(fromObjectJSON: key.utf8))
        rows.append(UInt8(ascii: ","))
        if let deleted {
            rows.append(UInt8(ascii: "["))
            appendStamp(deleted)
            rows.append(UInt8(ascii: "]"))
        } else {
            rows.append(contentsOf: "null".utf8)
        }
        for cell in cells.sorted(by: { $0.column.utf8Precedes($1.column) }) {
            rows.append(contentsOf: ",[".utf8)
            rows.append(contentsOf: try quote(cell.column))
            rows.append(UInt8(ascii: ","))
            rows.append(contentsOf: try SyncWireValue.Compact.json(fromObjectJSON: cell.value.utf8))
            rows.append(UInt8(ascii: ","))
            appendStamp(cell.stamp)
            rows.append(UInt8(ascii: "]"))
        }
        rows.append(UInt8(ascii: "]"))
        rowCount += 1
        current = nil
        deleted = nil
        cells.removeAll(keepingCapacity: true)
    }

    /// The device's index in the page's list. The device of the previous stamp is compared
    /// first, without copying the id's bytes: a page's stamps mostly name few devices, in runs.
    private mutating func index(of device: String) -> Int {
        if let lastDevice, deviceList[lastDevice].hasSameUTF8(as: device) { return lastDevice }
        let bytes = Array(device.utf8)
        let index = devices[bytes] ?? deviceList.count
        if index == deviceList.count {
            devices[bytes] = index
            deviceList.append(device)
        }
        lastDevice = index
        return index
    }

    /// A name as a JSON string, escaped once per distinct name. The names quoted last are
    /// compared first, without copying the name's bytes to look it up.
    private mutating func quote(_ name: String) throws -> [UInt8] {
        if let hit = recentNames.first(where: { $0.name.hasSameUTF8(as: name) }) { return hit.json }
        let bytes = Array(name.utf8)
        let encoded = try quoted[bytes] ?? Array(JSONEncoder().encode(name))
        quoted[bytes] = encoded
        if recentNames.count == Self.recentNameLimit { recentNames.removeFirst() }
        recentNames.append((name, encoded))
        return encoded
    }
}
