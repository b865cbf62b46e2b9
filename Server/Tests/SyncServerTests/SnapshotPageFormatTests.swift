import Foundation
import SQLiteStoreSyncProtocol
import Testing

@testable import StoreSyncServer

/// A snapshot page's compact values keep every value exactly, the server's splice of the values
/// it stores makes the same bytes as encoding them, and what is not the format is refused.
@Suite("Snapshot page format")
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
        var writer = SnapshotPageWriter()
        let encoder = JSONEncoder()
        for (index, value) in Self.values.enumerated() {
            let keyValue = index.isMultiple(of: 2) ? SyncWireValue.text("k\(index)") : .blob(Data([UInt8(index)]))
            let key = String(decoding: try encoder.encode(keyValue), as: UTF8.self)
            if index.isMultiple(of: 5) { try writer.add(table: "items", key: key, column: nil, value: nil, hlc: .max, device: "d1") }
            let stored = String(decoding: try encoder.encode(value), as: UTF8.self)
            try writer.add(table: "items", key: key, column: "c", value: stored, hlc: Int64(index), device: "d0")
        }
        let page = try JSONDecoder().decode(
            SyncSnapshotPage.self, from: writer.page(schemaVersion: 3, cursor: 9, limit: Self.values.count))
        #expect(page.rows.count == Self.values.count && page.devices == ["d1", "d0"] && page.next != nil)
        for (index, row) in page.rows.enumerated() {
            #expect(Self.sameBytes(row.key, index.isMultiple(of: 2) ? .text("k\(index)") : .blob(Data([UInt8(index)]))))
            #expect(Self.sameBytes(row.cells[0].value, Self.values[index]), "\(Self.values[index]) became \(row.cells[0].value)")
            #expect(row.cells[0].stamp == SyncSnapshotStamp(hlc: Int64(index), device: 1))
            #expect(row.deleted == (index.isMultiple(of: 5) ? SyncSnapshotStamp(hlc: .max, device: 0) : nil))
        }
        for value in Self.values {
            let spliced = try SyncWireValue.Compact.json(fromObjectJSON: encoder.encode(value))
            #expect(spliced == Array(try encoder.encode(SyncWireValue.Compact(value))), "\(value)")
        }
        // Another spelling of the object is decoded and encoded again.
        #expect(try SyncWireValue.Compact.json(fromObjectJSON: Array(#"{ "integer" : "5" }"#.utf8)) == Array(#"["integer","5"]"#.utf8))
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
