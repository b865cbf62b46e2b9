import Foundation
import SQLiteStoreSyncProtocol
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// The JSON that devices and the server exchange keeps every value exactly, and refuses what is
/// not the format's.
@Suite("Sync wire format")
struct SyncWireFormatTests {
    /// Every storage class, with the values JSON cannot say plainly.
    static let values: [DatabaseValue] = [
        .null, .integer(0), .integer(-1), .integer(.max), .integer(.min), .integer(9_007_199_254_740_993),
        .real(1.5), .real(0.1), .real(-0.0), .real(.infinity), .real(-.infinity), .real(.nan),
        .real(.leastNonzeroMagnitude), .real(.greatestFiniteMagnitude), .real(-.ulpOfOne),
        .text(""), .text("a\u{0}b"), .text("é"), .text("e\u{301}"), .text("🙂\u{FEFF}\"\\\n"), .text("\u{7F}\u{1}"),
        .blob(Data()), .blob(Data(0...255)),
    ]

    private static func batch() -> SyncBatch {
        var changes: [SyncChange] = []
        for (index, value) in values.enumerated() {
            changes.append(
                SyncChange(
                    id: SyncChange.ID(device: "device-\(index % 3)", sequence: Int64(index + 1)), table: "items",
                    key: index.isMultiple(of: 2) ? .text("key \(index)") : .blob(Data([UInt8(index), 0])),
                    operation: .set(column: "c\(index)", value: value),
                    timestamp: HybridTimestamp(milliseconds: 1_764_000_000_000 + Int64(index), counter: Int64(index))))
        }
        changes.append(
            SyncChange(
                id: SyncChange.ID(device: "device-0", sequence: 999), table: "items", key: .text("gone"), operation: .delete,
                timestamp: HybridTimestamp(rawValue: .max)))
        return SyncBatch(schemaVersion: 7, changes: changes)
    }

    /// Same bytes: storage class, bit pattern of reals, UTF-8 of text (Swift's `==` on strings
    /// would take "é" and "e\u{301}" for one).
    private static func sameBytes(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        switch (a, b) {
        case (.text(let x), .text(let y)): Array(x.utf8) == Array(y.utf8)
        case (.real(let x), .real(let y)): x.bitPattern == y.bitPattern
        default: a == b
        }
    }

    private static func sameChange(_ a: SyncChange, _ b: SyncChange) -> Bool {
        guard a.id == b.id, a.table == b.table, sameBytes(a.key, b.key), a.timestamp == b.timestamp else { return false }
        switch (a.operation, b.operation) {
        case (.delete, .delete): return true
        case (.set(let c1, let v1), .set(let c2, let v2)): return c1 == c2 && sameBytes(v1, v2)
        default: return false
        }
    }

    @Test("A batch survives JSON byte for byte: every storage class, NUL, combining marks, non-finite and negative-zero reals")
    func roundTrip() throws {
        let batch = Self.batch()
        let data = try JSONEncoder().encode(batch.pushRequest)
        let decoded = try JSONDecoder().decode(SyncPushRequest.self, from: data)
        #expect(decoded.format == SyncWireFormat.version)
        let back = SyncBatch(schemaVersion: decoded.schemaVersion, changes: decoded.changes.map(SyncChange.init))
        #expect(back.schemaVersion == 7)
        #expect(back.changes.count == batch.changes.count)
        for (original, received) in zip(batch.changes, back.changes) {
            #expect(Self.sameChange(original, received), "\(original) became \(received)")
        }
    }

    @Test("Wire values are equal as SQLite's: texts by their bytes, each kind apart")
    func equalityByBytes() {
        #expect(SyncWireValue.text("\u{E9}") != .text("e\u{301}"))
        #expect(SyncWireValue.text("e\u{301}") == .text("e\u{301}"))
        #expect(Set<SyncWireValue>([.text("\u{E9}"), .text("e\u{301}"), .integer(1), .real(1), .text("1")]).count == 5)
    }

    @Test("A pull response keeps the changes, the cursor and whether more wait")
    func pullResponse() throws {
        let batch = Self.batch()
        let response = SyncPullResponse(schemaVersion: 7, changes: batch.changes.map(\.wire), cursor: 42, more: true)
        let decoded = try JSONDecoder().decode(SyncPullResponse.self, from: JSONEncoder().encode(response))
        #expect(decoded.cursor == 42 && decoded.more)
        let back = SyncBatch(decoded)
        #expect(zip(batch.changes, back.changes).allSatisfy(Self.sameChange))
    }

    @Test("The spelling is fixed: other clients read it")
    func spelling() throws {
        let change = SyncChange(
            id: SyncChange.ID(device: "d", sequence: 3), table: "Items", key: .text("k"),
            operation: .set(column: "n", value: .integer(-42)), timestamp: HybridTimestamp(rawValue: 65_537))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(change.wire), as: UTF8.self)
        #expect(
            json
                == #"{"column":"n","device":"d","hlc":"65537","key":{"text":"k"},"op":"set","sequence":3,"table":"items","value":{"integer":"-42"}}"#
        )
        let values: [SyncWireValue] = [.null, .real(.infinity), .real(-.infinity), .real(.nan), .blob(Data([0, 255]))]
        #expect(
            String(decoding: try encoder.encode(values), as: UTF8.self)
                == #"[null,{"real":"inf"},{"real":"-inf"},{"real":"nan"},{"blob":"AP8="}]"#)
    }

    @Test(
        "What is not the format is refused",
        arguments: [
            #"{"integer":"1.5"}"#, #"{"integer":1}"#, #"{"real":"infinity"}"#, #"{"blob":"@@"}"#, #"{"text":"a","blob":""}"#,
            #"{}"#, #"{"date":"2026"}"#, #"[]"#, #""text""#,
        ])
    func refusedValues(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SyncWireValue.self, from: Data(json.utf8)) }
    }

    @Test("A snapshot page's URL keeps every position's key byte for byte, with `+` and spaces escaped")
    func snapshotURL() throws {
        let server = try #require(URL(string: "http://127.0.0.1:8080"))
        let keys = ["a+b c", "&x=1", "caf\u{E9}", "cafe\u{301}", "100%", "🙂/?#", ""]
        for key in keys {
            let url = try #require(
                SyncWireFormat.snapshotURL(
                    on: server, schemaVersion: 3, limit: 7, cursor: 42, after: SyncSnapshotPosition(table: "t\u{E9}", key: key)))
            let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            let query = try #require(components.percentEncodedQuery)
            #expect(query.unicodeScalars.allSatisfy { $0.isASCII && $0 != "+" && $0 != " " })
            #expect(components.path == SyncWireFormat.snapshotPath)
            let items = try #require(components.queryItems).map { [$0.name, $0.value ?? ""] }
            let expected = [
                ["format", "1"], ["schema", "3"], ["limit", "7"], ["up_to", "42"], ["after_table", "t\u{E9}"], ["after_key", key],
            ]
            #expect(items.map { $0.map { Array($0.utf8) } } == expected.map { $0.map { Array($0.utf8) } })
        }
        let first = try #require(SyncWireFormat.snapshotURL(on: server, schemaVersion: 3, limit: 7, cursor: nil, after: nil))
        #expect(URLComponents(url: first, resolvingAgainstBaseURL: false)?.percentEncodedQuery == "format=1&schema=3&limit=7")
    }

    @Test("A change with an unknown operation, a set without a value or a clock that is not an integer is refused")
    func refusedChanges() {
        let base = #""device":"d","sequence":1,"table":"t","key":{"text":"k"},"hlc":"1""#
        for json in [
            "{\(base),\"op\":\"merge\"}", "{\(base),\"op\":\"set\",\"column\":\"c\"}",
            #"{"device":"d","sequence":1,"table":"t","key":null,"op":"delete","hlc":"x"}"#,
        ] {
            #expect(throws: DecodingError.self, "\(json)") {
                try JSONDecoder().decode(SyncWireChange.self, from: Data(json.utf8))
            }
        }
    }
}
