import Foundation
import SQLiteStoreSyncProtocol

/// Writes a ``SyncSnapshotPage``'s JSON from the changes of the snapshot query: keeps each
/// row's winning cell per column and its latest delete, and splices in the keys and values as
/// the change log stores them (JSON already, written by this server from decoded changes,
/// turned into their compact pairs) instead of decoding and encoding every cell again. It works
/// on the answer's bytes: no `String` per change.
struct SnapshotPageWriter {
    /// A change's stamp: the merge rule's order, then the server's for equal stamps.
    struct Stamp {
        let hlc: Int64
        /// The change's device, by its index in the page's list.
        let device: Int
        /// The change's server sequence: of two changes with the same clock and device, the later wins.
        let sequence: Int64
    }

    /// The page at `cursor` of `changes`, of those `keep` keeps: its JSON (with `next` when more
    /// rows follow) and where the next page starts. Changes out of (table, key) order by bytes
    /// are refused: a row seen twice would reach the device as two.
    static func page(
        of changes: SnapshotChanges, schemaVersion: Int64, cursor: Int64, keeping keep: (Int) -> Bool = { _ in true }
    ) throws -> SnapshotPageBody {
        var writer = SnapshotPageWriter(changes: changes)
        for change in 0..<changes.count where keep(change) { try writer.add(change) }
        return try writer.page(schemaVersion: schemaVersion, cursor: cursor)
    }

    private let changes: SnapshotChanges
    private var rows: [UInt8] = []
    /// The page's devices by index, as bytes (String's `==` would equate canonically equivalent ids).
    private var deviceIDs: [[UInt8]] = []
    private var deviceIndexes: [[UInt8]: Int] = [:]
    /// The change whose device was looked up last, and that device's index.
    private var lastDevice: (change: Int, index: Int)?
    /// Each name's JSON, by the name's bytes.
    private var quoted: [[UInt8]: [UInt8]] = [:]
    /// The names quoted last, with their JSON: a page's rows name the same few tables and columns over and over.
    private var recentNames: [(name: [UInt8], json: [UInt8])] = []
    private static let recentNameLimit = 16
    /// The first change of the row being gathered.
    private var current: Int?
    /// The first change of the row finished last.
    private var last: Int?
    /// The current row's latest delete.
    private var deleted: Stamp?
    /// The current row's winning cell per column (told apart by bytes, as the log does): the change that set it.
    private var cells: [(change: Int, stamp: Stamp)] = []
    /// How many rows the page holds.
    private var rowCount = 0

    private init(changes: SnapshotChanges) {
        self.changes = changes
    }

    /// Adds one change: of the current row, or the first of the next one; a cell or a delete.
    private mutating func add(_ change: Int) throws {
        if current.map({ !sameRow($0, change) }) ?? true {
            if let previous = current ?? last, !rowPrecedes(previous, change) {
                let (table, key) = (changes.tables.bytes(change), changes.keys.bytes(change))
                throw SnapshotPageError(
                    "the snapshot's rows came out of (table, key) order at \(String(decoding: table, as: UTF8.self)) \(String(decoding: key, as: UTF8.self))"
                )
            }
            try finishRow()
            current = change
        }
        let stamp = Stamp(hlc: changes.clocks[change], device: device(of: change), sequence: changes.sequences[change])
        if changes.columns.isEmpty(change) {
            if deleted.map({ precedes($0, stamp) }) ?? true { deleted = stamp }
        } else if let index = cells.firstIndex(where: { changes.columns.sameBytes($0.change, change) }) {
            if precedes(cells[index].stamp, stamp) { cells[index] = (change, stamp) }
        } else {
            cells.append((change, stamp))
        }
    }

    /// Whether stamp `a` loses to `b`: a smaller clock, then a device id smaller by bytes, then an earlier change.
    private func precedes(_ a: Stamp, _ b: Stamp) -> Bool {
        if a.hlc != b.hlc { return a.hlc < b.hlc }
        if a.device != b.device { return deviceIDs[a.device].lexicographicallyPrecedes(deviceIDs[b.device]) }
        return a.sequence < b.sequence
    }

    /// Whether changes `a` and `b` are of one row: the same bytes (String's `==` would equate
    /// canonically equivalent keys that the log stores as two rows).
    private func sameRow(_ a: Int, _ b: Int) -> Bool {
        changes.keys.sameBytes(a, b) && changes.tables.sameBytes(a, b)
    }

    /// Whether change `a`'s row comes before change `b`'s in (table, key) order by bytes, the snapshot's order.
    private func rowPrecedes(_ a: Int, _ b: Int) -> Bool {
        let tables = changes.tables.compare(a, b)
        return tables != 0 ? tables < 0 : changes.keys.compare(a, b) < 0
    }

    /// The page: its JSON (the rows added, at `cursor`, and `next` when more rows follow) and
    /// where the next page starts.
    private mutating func page(schemaVersion: Int64, cursor: Int64) throws -> SnapshotPageBody {
        try finishRow()
        let position = changes.moreFollow ? changes.lastRow : nil
        // Sorted keys: a page is the same bytes whichever process writes it (an encoder's own order is not).
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let next = try position.map { Array(try encoder.encode($0)) } ?? Array("null".utf8)
        let devices = try JSONEncoder().encode(deviceIDs.map { String(decoding: $0, as: UTF8.self) })
        var body = Array(
            "{\"format\":\(SyncWireFormat.version),\"schemaVersion\":\(schemaVersion),\"cursor\":\(cursor),\"devices\":".utf8)
        body += devices
        body += Array(",\"rows\":[".utf8) + rows + Array("],\"next\":".utf8) + next + [UInt8(ascii: "}")]
        return SnapshotPageBody(json: Data(body), next: position)
    }

    /// Writes the current row: `[table, key, deleted, cell, …]`, its cells in the order of their columns' bytes.
    private mutating func finishRow() throws {
        guard let row = current else { return }
        last = row
        if rowCount > 0 { rows.append(UInt8(ascii: ",")) }
        rows.append(UInt8(ascii: "["))
        try appendName(changes.tables, row)
        rows.append(UInt8(ascii: ","))
        try appendValue(changes.keys, row)
        rows.append(UInt8(ascii: ","))
        if let deleted {
            rows.append(UInt8(ascii: "["))
            appendStamp(deleted)
            rows.append(UInt8(ascii: "]"))
        } else {
            rows.append(contentsOf: "null".utf8)
        }
        let columns = changes.columns
        for cell in cells.sorted(by: { columns.compare($0.change, $1.change) < 0 }) {
            rows.append(contentsOf: ",[".utf8)
            try appendName(columns, cell.change)
            rows.append(UInt8(ascii: ","))
            try appendValue(changes.values, cell.change)
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

    /// Appends element `index` of `values`, a value's JSON as the log stores it, in its compact spelling.
    private mutating func appendValue(_ values: PostgresBinaryArray, _ index: Int) throws {
        try values.withElement(index) { try SyncWireValue.Compact.appendJSON(fromObjectJSON: $0, to: &rows) }
    }

    /// Appends `"hlc",device` to the rows: the clock as a decimal string, the device by its index in the page's list.
    private mutating func appendStamp(_ stamp: Stamp) {
        rows.append(UInt8(ascii: "\""))
        appendDecimal(stamp.hlc)
        rows.append(contentsOf: "\",".utf8)
        appendDecimal(Int64(stamp.device))
    }

    /// Appends `value`'s decimal digits, without making a `String` of them.
    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 { rows.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            rows.append(contentsOf: digits[start...])
        }
    }

    /// The index in the page's list of change `change`'s device. The device of the previous
    /// lookup is compared first, without copying the id's bytes: a page's stamps mostly name few
    /// devices, in runs.
    private mutating func device(of change: Int) -> Int {
        if let lastDevice, changes.devices.sameBytes(lastDevice.change, change) { return lastDevice.index }
        let id = changes.devices.bytes(change)
        let index = deviceIndexes[id] ?? deviceIDs.count
        if index == deviceIDs.count {
            deviceIndexes[id] = index
            deviceIDs.append(id)
        }
        lastDevice = (change, index)
        return index
    }

    /// Appends element `index` of `names` as a JSON string, escaped once per distinct name. The
    /// names quoted last are compared first, without copying the name's bytes to look it up.
    private mutating func appendName(_ names: PostgresBinaryArray, _ index: Int) throws {
        if let hit = recentNames.first(where: { names.element(index, is: $0.name) }) {
            rows.append(contentsOf: hit.json)
            return
        }
        let name = names.bytes(index)
        let json = try quoted[name] ?? Array(JSONEncoder().encode(String(decoding: name, as: UTF8.self)))
        quoted[name] = json
        if recentNames.count == Self.recentNameLimit { recentNames.removeFirst() }
        recentNames.append((name, json))
        rows.append(contentsOf: json)
    }
}
