import Foundation
import NIOCore
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

@testable import StoreSyncServer

/// A snapshot page's compact values keep every value exactly, the server's splice of the values
/// it stores makes the same bytes as encoding them, the page it reads from PostgreSQL reads back
/// byte for byte, and what is not the format is refused.
@Suite("Snapshot page format", .serialized, .timeLimit(.minutes(2)))
struct SnapshotPageFormatTests {
    /// Every storage class, with the values JSON cannot say plainly.
    static let values: [SyncWireValue] = [
        .null, .integer(0), .integer(-1), .integer(.max), .integer(.min), .integer(9_007_199_254_740_993),
        .real(1.5), .real(0.1), .real(-0.0), .real(.infinity), .real(-.infinity), .real(.nan),
        .real(.leastNonzeroMagnitude), .real(.greatestFiniteMagnitude), .text(""), .text("a\u{0}b"), .text("é"),
        .text("e\u{301}"), .text("🙂\u{FEFF}\"\\\n/"), .text("\u{7F}\u{1}"), .text("}"), .blob(Data()), .blob(Data(0...255)),
    ]

    /// Same bytes: storage class, bit pattern of reals, UTF-8 of text.
    static func sameBytes(_ a: SyncWireValue, _ b: SyncWireValue) -> Bool {
        switch (a, b) {
        case (.text(let x), .text(let y)): Array(x.utf8) == Array(y.utf8)
        case (.real(let x), .real(let y)): x.bitPattern == y.bitPattern
        default: a == b
        }
    }

    @Test("The page the server writes from stored values reads back byte for byte, keys and values of every storage class")
    func writtenPageRoundTrip() throws {
        var changes: [SnapshotChange] = []
        let encoder = JSONEncoder()
        let keys = Self.values.indices.map { index in
            index.isMultiple(of: 2) ? SyncWireValue.text(String(format: "k%02d", index)) : .blob(Data([UInt8(index)]))
        }
        // The query's order, by the stored keys' bytes: every blob before every text.
        let order = Self.values.indices.filter { !$0.isMultiple(of: 2) } + Self.values.indices.filter { $0.isMultiple(of: 2) }
        for index in order {
            let key = String(decoding: try encoder.encode(keys[index]), as: UTF8.self)
            if index.isMultiple(of: 5) {
                changes.append(SnapshotChange(key: key, hlc: .max, device: "d1", sequence: 1))
            }
            let stored = String(decoding: try encoder.encode(Self.values[index]), as: UTF8.self)
            changes.append(SnapshotChange(key: key, column: "c", value: stored, hlc: Int64(index), device: "d0", sequence: 2))
        }
        let body = try SnapshotPageWriter.page(of: SnapshotChanges(changes).followed(true), schemaVersion: 3, cursor: 9)
        let page = try JSONDecoder().decode(SyncSnapshotPage.self, from: body.json)
        #expect(page.rows.count == Self.values.count && page.devices == ["d0", "d1"] && page.next != nil)
        for (row, index) in zip(page.rows, order) {
            #expect(Self.sameBytes(row.key, keys[index]))
            #expect(Self.sameBytes(row.cells[0].value, Self.values[index]), "\(Self.values[index]) became \(row.cells[0].value)")
            #expect(row.cells[0].stamp == SyncSnapshotStamp(hlc: Int64(index), device: 0))
            #expect(row.deleted == (index.isMultiple(of: 5) ? SyncSnapshotStamp(hlc: .max, device: 1) : nil))
        }
        for value in Self.values {
            #expect(try Self.spliced(encoder.encode(value)) == Array(try encoder.encode(SyncWireValue.Compact(value))), "\(value)")
        }
        // Another spelling of the object is decoded and encoded again.
        #expect(try Self.spliced(Data(#"{ "integer" : "5" }"#.utf8)) == Array(#"["integer","5"]"#.utf8))
    }

    /// The compact spelling the server splices in for a value's JSON as the log stores it.
    static func spliced(_ object: Data) throws -> [UInt8] {
        var json: [UInt8] = []
        try object.withUnsafeBytes { try SyncWireValue.Compact.appendJSON(fromObjectJSON: $0, to: &json) }
        return json
    }

    @Test("A page the server reads from PostgreSQL reads back byte for byte: keys and values of every storage class, deletes, devices")
    func pageReadFromPostgreSQL() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        let now = Int64(Date().timeIntervalSince1970 * 1000) << 16
        // Keys of both kinds; two canonically equivalent texts of different bytes, next to each other in byte order, are two rows.
        var keys = Self.values.indices.map { index in
            index.isMultiple(of: 2) ? SyncWireValue.text("a\(index)") : .blob(Data([UInt8(index)]))
        }
        (keys[2], keys[4]) = (.text("é"), .text("e\u{301}"))
        var changes: [SyncWireChange] = []
        for (index, value) in Self.values.enumerated() {
            let key = keys[index]
            changes.append(
                SyncWireChange(
                    device: "d1", sequence: Int64(index) + 1, table: "items", key: key, operation: .set(column: "title", value: value),
                    hlc: now + Int64(index)))
            if index.isMultiple(of: 3) {
                changes.append(
                    SyncWireChange(
                        device: "d0", sequence: Int64(index) + 1, table: "items", key: key,
                        operation: .set(column: "n", value: .integer(Int64(index))), hlc: now))
            }
            if index.isMultiple(of: 5) {
                changes.append(
                    SyncWireChange(device: "d2", sequence: Int64(index) + 1, table: "items", key: key, operation: .delete, hlc: now - 1))
            }
        }
        let pushed = try await HTTP.send(
            "POST", server.url.appendingPathComponent(SyncWireFormat.pushPath), token: token, body: ServerFixture.push(changes))
        #expect(pushed.status == 200, "\(pushed.text)")
        #expect(try pushed.decode(SyncPushResponse.self).stored == changes.count)
        // A value stored in another spelling of its object is parsed, not spliced.
        try await ServerDatabase.execute(
            #"UPDATE sync_changes SET value = '{ "integer" : "5" }' WHERE device = 'd0' AND device_seq = 4"#, in: fixture.database)

        let answer = try await HTTP.send("GET", ServerFixture.snapshotURL(server.url, limit: Self.values.count), token: token)
        #expect(answer.status == 200, "\(answer.text)")
        let page = try answer.decode(SyncSnapshotPage.self)
        #expect(page.rows.count == Self.values.count && Set(page.devices) == ["d0", "d1", "d2"] && page.next != nil)
        for row in page.rows {
            let index = try #require(keys.firstIndex { Self.sameBytes($0, row.key) }, "\(row.key) is no key pushed")
            let title = try #require(row.cells.first { $0.column == "title" })
            #expect(Self.sameBytes(title.value, Self.values[index]), "\(Self.values[index]) became \(title.value)")
            #expect(title.stamp.hlc == now + Int64(index) && page.devices[title.stamp.device] == "d1")
            let n = row.cells.first { $0.column == "n" }
            #expect(n?.value == (index.isMultiple(of: 3) ? .integer(index == 3 ? 5 : Int64(index)) : nil))
            #expect(n.map { page.devices[$0.stamp.device] == "d0" } ?? true)
            #expect(row.cells.count == (index.isMultiple(of: 3) ? 2 : 1))
            #expect(row.deleted.map { $0.hlc == now - 1 && page.devices[$0.device] == "d2" } ?? !index.isMultiple(of: 5))
        }
        let storedKeys = try page.rows.map { Array(try JSONEncoder().encode($0.key)) }
        #expect(storedKeys == storedKeys.sorted { $0.lexicographicallyPrecedes($1) }, "rows out of the keys' byte order")

        let next = try await HTTP.send(
            "GET", ServerFixture.snapshotURL(server.url, limit: Self.values.count, upTo: page.cursor, after: page.next), token: token
        ).decode(SyncSnapshotPage.self)
        #expect(next.rows.isEmpty && next.devices.isEmpty && next.next == nil && next.cursor == page.cursor)
    }

    @Test("Each row keeps its winning cell per column and its latest delete: greatest clock, then device by bytes, then the later change")
    func winners() throws {
        // A fresh seed each run unless STORE_TEST_SEED replays one.
        let seed = ProcessInfo.processInfo.environment["STORE_TEST_SEED"].flatMap(UInt64.init) ?? .random(in: .min ... .max)
        var random = SplitMix64(seed: seed)
        // Few clocks and devices, so that ties on the clock and on (clock, device) are frequent;
        // devices and columns that are canonically equivalent texts of different bytes.
        let devices = ["d0", "d1", "e\u{301}", "\u{E9}"]
        let columns = ["a", "b", "\u{E9}", "e\u{301}", nil]
        var changes: [SnapshotChange] = []
        var expected: [[[UInt8]: SnapshotChange]] = []
        var sequence: Int64 = 0
        for row in 0..<200 {
            // The model: by the column's bytes (a delete under no bytes), the greatest (clock, device's bytes, sequence).
            var winners: [[UInt8]: SnapshotChange] = [:]
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                sequence += Int64.random(in: 1...3, using: &random)
                let column = columns.randomElement(using: &random) ?? nil
                let change = SnapshotChange(
                    key: String(format: #"{"text":"k%03d"}"#, row), column: column,
                    value: column.map { _ in #"{"integer":"\#(sequence)"}"# }, hlc: Int64.random(in: 1...3, using: &random),
                    device: devices.randomElement(using: &random) ?? "", sequence: sequence)
                changes.append(change)
                let name = Array((column ?? "").utf8)
                let newer = { (old: SnapshotChange) -> Bool in
                    if old.hlc != change.hlc { return old.hlc < change.hlc }
                    let (oldDevice, newDevice) = (Array(old.device.utf8), Array(change.device.utf8))
                    if oldDevice != newDevice { return oldDevice.lexicographicallyPrecedes(newDevice) }
                    return old.sequence < change.sequence
                }
                if winners[name].map(newer) ?? true {
                    winners[name] = change
                }
            }
            expected.append(winners)
        }
        let body = try SnapshotPageWriter.page(of: SnapshotChanges(changes), schemaVersion: 1, cursor: sequence)
        let page = try JSONDecoder().decode(SyncSnapshotPage.self, from: body.json)
        #expect(page.rows.count == expected.count && page.next == nil, "seed \(seed)")
        for (row, winners) in zip(page.rows, expected) {
            let names = winners.keys.filter { !$0.isEmpty }.sorted { $0.lexicographicallyPrecedes($1) }
            #expect(row.cells.map { Array($0.column.utf8) } == names, "seed \(seed)")
            for cell in row.cells {
                let winner = try #require(winners[Array(cell.column.utf8)], "seed \(seed)")
                #expect(cell.value == .integer(winner.sequence), "seed \(seed)")
                #expect(
                    cell.stamp.hlc == winner.hlc && page.devices[cell.stamp.device].utf8.elementsEqual(winner.device.utf8), "seed \(seed)")
            }
            let delete = winners[[]]
            #expect(row.deleted?.hlc == delete?.hlc, "seed \(seed)")
            #expect(row.deleted.map { Array(page.devices[$0.device].utf8) } == delete.map { Array($0.device.utf8) }, "seed \(seed)")
        }
    }

    @Test("Rows that come out of (table, key) byte order are refused, and canonically equivalent keys stay two rows")
    func rowOrder() throws {
        let title = { (key: String) in
            SnapshotChange(key: key, column: "title", value: #"{"text":"t"}"#, hlc: 1, device: "d", sequence: 1)
        }
        let (decomposed, composed) = (#"{"text":"e\#u{301}"}"#, #"{"text":"é"}"#)
        let twoRows = try SnapshotPageWriter.page(
            of: SnapshotChanges([title(decomposed), title(composed)]), schemaVersion: 1, cursor: 1)
        let page = try JSONDecoder().decode(SyncSnapshotPage.self, from: twoRows.json)
        #expect(page.rows.count == 2 && zip(page.rows.map(\.key), [.text("e\u{301}"), .text("é")]).allSatisfy(Self.sameBytes))
        let full = try SnapshotPageWriter.page(of: SnapshotChanges([title(decomposed)]).followed(true), schemaVersion: 1, cursor: 1)
        // The next position, as the page spells it and as the lookahead reads it: by bytes, the decomposed key.
        let next = try #require(try JSONDecoder().decode(SyncSnapshotPage.self, from: full.json).next)
        #expect(full.next.map { Array($0.key.utf8) } == Array(next.key.utf8) && next.key.utf8.elementsEqual(decomposed.utf8))
        for outOfOrder in [
            [title(decomposed), title(composed), title(#"{"text":"a"}"#)],
            [title(#"{"text":"a"}"#), title(#"{"text":"b"}"#), title(#"{"text":"a"}"#)],
        ] {
            #expect(throws: SnapshotPageError.self) {
                try SnapshotPageWriter.page(of: SnapshotChanges(outOfOrder), schemaVersion: 1, cursor: 1)
            }
        }
    }

    @Test("PostgreSQL's binary arrays read back element for element; any other bytes are refused, never read past")
    func binaryArrays() throws {
        let texts = ["", "a", "é", String(repeating: "z", count: 300), "\u{0}"]
        let array = try PostgresBinaryArray.texts(texts)
        #expect(array.count == texts.count && (0..<texts.count).map(array.bytes) == texts.map { Array($0.utf8) })
        #expect(array.isEmpty(0) && !array.isEmpty(1) && array.compare(1, 2) < 0 && array.compare(2, 1) > 0 && array.sameBytes(4, 4))
        #expect(try PostgresBinaryArray.texts([]).count == 0)
        let integers: [Int64] = [0, -1, .max, .min, 1_764_650_000_000 << 16]
        let int8 = PostgresBinaryArray.binary(integers.map { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } }, of: .int8)
        #expect(try PostgresBinaryArray(binary: int8, of: .int8).integers() == integers)

        let valid = PostgresBinaryArray.binary(texts.map { Array($0.utf8) }, of: .text)
        for length in 0..<valid.readableBytes {
            #expect(throws: SnapshotPageError.self, "cut at \(length)") {
                try PostgresBinaryArray(binary: valid.getSlice(at: valid.readerIndex, length: length) ?? ByteBuffer(), of: .text)
            }
        }
        var longer = valid
        longer.writeInteger(UInt8(0))
        var withNulls = valid
        withNulls.setInteger(Int32(1), at: withNulls.readerIndex + 4)
        var twoDimensions = valid
        twoDimensions.setInteger(Int32(2), at: twoDimensions.readerIndex)
        var hugeCount = valid
        hugeCount.setInteger(Int32.max, at: hugeCount.readerIndex + 12)
        var negativeLength = valid
        negativeLength.setInteger(Int32(-1), at: negativeLength.readerIndex + 20)
        for refused in [longer, withNulls, twoDimensions, hugeCount, negativeLength] {
            #expect(throws: SnapshotPageError.self) { try PostgresBinaryArray(binary: refused, of: .text) }
        }
        #expect(throws: SnapshotPageError.self) { try PostgresBinaryArray(binary: valid, of: .int8) }
        #expect(throws: SnapshotPageError.self) { try PostgresBinaryArray.texts(["1234567"]).integers() }
    }

    @Test(
        "A compact value that is not the format is refused, alone and in a page",
        arguments: [
            #"["integer","1.5"]"#, #"["integer",1]"#, #"["real","infinity"]"#, #"["blob","@@"]"#, #"["text","a","b"]"#, #"["text"]"#,
            #"[]"#, #"["date","2026"]"#, #"["text",null]"#, #"{"text":"a"}"#, #""text""#, #"[["text","a"]]"#,
        ])
    func refusedCompactValues(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SyncWireValue.Compact.self, from: Data(json.utf8)) }
        let page = #"{"format":1,"schemaVersion":1,"cursor":1,"devices":["d"],"rows":[["t",KEY,null,["c",VALUE,"1",0]]],"next":null}"#
        for spliced in [
            page.replacingOccurrences(of: "KEY", with: json).replacingOccurrences(of: "VALUE", with: "null"),
            page.replacingOccurrences(of: "KEY", with: #"["text","k"]"#).replacingOccurrences(of: "VALUE", with: json),
        ] {
            #expect(throws: DecodingError.self, "\(spliced)") { try JSONDecoder().decode(SyncSnapshotPage.self, from: Data(spliced.utf8)) }
        }
    }
}
