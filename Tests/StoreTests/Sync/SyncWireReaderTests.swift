import Foundation
import SQLiteStoreSyncProtocol
import TestSupport
import Testing

/// `SyncSnapshotPage(json:)` and `SyncPullResponse(json:)`, the readers a device uses instead
/// of `JSONDecoder`, read every page and answer as `JSONDecoder` does, and never read what
/// `JSONDecoder` would read otherwise.
@Suite("Sync wire readers")
struct SyncWireReaderTests {
    @Test("Random pages read as JSONDecoder reads them, however the encoder spells them")
    func randomPages() throws {
        try Self.readAsDecoder(RandomWire.page, SyncSnapshotPage.init(json:))
    }

    @Test("Random pull answers read as JSONDecoder reads them, however the encoder spells them")
    func randomPulls() throws {
        try Self.readAsDecoder(RandomWire.pull, SyncPullResponse.init(json:))
    }

    @Test("Random pushes read as JSONDecoder reads them, however the encoder spells them")
    func randomPushes() throws {
        try Self.readAsDecoder(RandomWire.push, SyncPushRequest.init(json:))
    }

    @Test("Random values read as JSONDecoder reads them, however the encoder spells them")
    func randomValues() throws {
        try Self.readAsDecoder(RandomWire.value, SyncWireValue.init(json:))
    }

    @Test("Damaged pushes are refused, or read exactly as JSONDecoder reads them")
    func damagedPushes() throws {
        try Self.refuseOrReadAsDecoder(RandomWire.push, SyncPushRequest.init(json:))
    }

    @Test("Damaged values are refused, or read exactly as JSONDecoder reads them")
    func damagedValues() throws {
        try Self.refuseOrReadAsDecoder(RandomWire.value, SyncWireValue.init(json:))
    }

    @Test("Damaged pages are refused, or read exactly as JSONDecoder reads them")
    func damagedPages() throws {
        try Self.refuseOrReadAsDecoder(RandomWire.page, SyncSnapshotPage.init(json:))
    }

    @Test("Damaged pull answers are refused, or read exactly as JSONDecoder reads them")
    func damagedPulls() throws {
        try Self.refuseOrReadAsDecoder(RandomWire.pull, SyncPullResponse.init(json:))
    }

    /// Random messages of up to 40 rows or changes, spelled by `JSONEncoder` three ways, each
    /// read by `read` as `JSONDecoder` reads it.
    private static func readAsDecoder<Message: Codable>(
        _ make: (inout SeededGenerator, Int) -> Message, _ read: (Data) throws -> Message
    ) throws {
        var random = SeededGenerator()
        let formattings: [JSONEncoder.OutputFormatting] = [[], .sortedKeys, [.prettyPrinted, .withoutEscapingSlashes]]
        for round in 0..<300 {
            let message = make(&random, 40)
            let encoder = JSONEncoder()
            encoder.outputFormatting = formattings[round % formattings.count]
            let json = try encoder.encode(message)
            #expect(try spelling(of: read(json)) == spelling(of: message), "seed \(random.seed), round \(round)")
        }
    }

    /// Random messages of up to 3 rows or changes with one to three bytes damaged: `read`
    /// refuses each, or reads it as `JSONDecoder` does. Both happen often.
    private static func refuseOrReadAsDecoder<Message: Codable>(
        _ make: (inout SeededGenerator, Int) -> Message, _ read: (Data) throws -> Message
    ) throws {
        var random = SeededGenerator()
        var (refused, accepted) = (0, 0)
        for round in 0..<3_000 {
            let damaged = RandomWire.damage(try JSONEncoder().encode(make(&random, 3)), using: &random)
            guard let message = try? read(damaged) else {
                refused += 1
                continue
            }
            accepted += 1
            let decoded = try #require(
                try? JSONDecoder().decode(Message.self, from: damaged),
                "seed \(random.seed), round \(round): read \(String(decoding: damaged, as: UTF8.self)), which JSONDecoder refuses")
            #expect(
                try spelling(of: message) == spelling(of: decoded),
                "seed \(random.seed), round \(round): \(String(decoding: damaged, as: UTF8.self))")
        }
        #expect(refused > 1_000 && accepted > 100, "seed \(random.seed): \(refused) refused, \(accepted) read")
    }

    @Test(
        "What is not a page's JSON is refused, naming the byte",
        arguments: [
            ("", "byte 0: expected an object"),
            (#"{"format":1,"schemaVersion":1,"cursor":1,"devices":[],"rows":[]} x"#, "byte 65: the JSON goes on"),
            (#"{"format":1,"schemaVersion":1,"cursor":1,"devices":[]}"#, "rows"),
            (#"{"format":1.0,"schemaVersion":1,"cursor":1,"devices":[],"rows":[]}"#, "integer"),
            (#"{"format":1,"schemaVersion":1,"cursor":1,"devices":["\ud800"],"rows":[]}"#, "surrogate"),
            (#"{"format":1,"schemaVersion":1,"cursor":1,"devices":["\udc00"],"rows":[]}"#, "surrogate"),
            (#"{"format":1,"schemaVersion":1,"cursor":1,"devices":["a"#, "does not end"),
            (#"{"format":1,"schemaVersion":1,"cursor":1,"devices":[],"rows":[["t",null,null,["c",["integer","1x"],"1",0]]]}"#, "integer"),
            (#"{"format":1,"schemaVersion":1,"cursor":1,"devices":[],"rows":[["t",null,null,["c",null,"1",0,0]]]}"#, "more elements"),
            (#"{"format":1,"schemaVersion":1,"cursor":1,"devices":[],"rows":[["t",null]]}"#, "delete"),
            (#"{"format":1,"schemaVersion":1,"cursor":1,"devices":[],"rows":[["t",["date","x"],null]]}"#, "not integer"),
            (#"{"format":1,"schemaVersion":1,"cursor":1,"devices":[],"rows":[],}"#, "key"),
            (#"{"format":01,"schemaVersion":1,"cursor":1,"devices":[],"rows":[]}"#, "comma"),
        ])
    func refused(json: String, naming: String) {
        do {
            _ = try SyncSnapshotPage(json: Data(json.utf8))
            Issue.record("read \(json)")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains(naming), "\(json): \(context.debugDescription)")
        } catch {
            Issue.record("\(json): \(error)")
        }
    }

    @Test("Text that is not UTF-8, and control characters inside a string, are refused")
    func refusedBytes() {
        let head = Array(#"{"format":1,"schemaVersion":1,"cursor":1,"devices":[""#.utf8)
        let tail = Array(#""],"rows":[]}"#.utf8)
        for content: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x99], [0x0A], [0x00]] {
            #expect(throws: DecodingError.self, "\(content)") { try SyncSnapshotPage(json: Data(head + content + tail)) }
        }
        let page = try? SyncSnapshotPage(json: Data(head + Array("é\\u00e9\\ud83d\\ude42\\u0000".utf8) + tail))
        #expect(page?.devices.first.map { Array($0.utf8) } == Array("é\u{E9}🙂\u{0}".utf8))
    }

    @Test("Members it does not know are skipped, and nesting past 512 is refused without exhausting the stack")
    func unknownMembers() throws {
        let known = #""format":1,"schemaVersion":2,"cursor":3,"devices":["d"],"rows":[],"next":null"#
        let skipped = #""later":{"a":[1,-2.5e+3,true,false,null,"\"x\"",{}],"b":[]}"#
        let page = try SyncSnapshotPage(json: Data("{\(skipped),\(known)}".utf8))
        #expect(page.cursor == 3 && page.devices == ["d"] && page.next == nil)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: DecodingError.self) { try SyncSnapshotPage(json: Data(#"{"x":\#(deep),\#(known)}"#.utf8)) }
        let fits = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        #expect(try SyncSnapshotPage(json: Data(#"{"x":\#(fits),\#(known)}"#.utf8)).schemaVersion == 2)
    }

    @Test(
        "What is not a pull answer's JSON is refused, naming the byte",
        arguments: [
            (#"{"format":1,"schemaVersion":1,"changes":[],"cursor":1}"#, "more"),
            (#"{"format":1,"schemaVersion":1,"changes":[],"cursor":1,"more":1}"#, "true or false"),
            (
                #"{"format":1,"schemaVersion":1,"changes":[{"device":"d","sequence":1,"table":"t","key":null,"op":"set","hlc":"1"}],"cursor":1,"more":true}"#,
                "column and value"
            ),
            (
                #"{"format":1,"schemaVersion":1,"changes":[{"device":"d","sequence":1,"table":"t","key":null,"op":"put","hlc":"1"}],"cursor":1,"more":true}"#,
                "set or delete"
            ),
            (
                #"{"format":1,"schemaVersion":1,"changes":[{"device":"d","sequence":1,"table":"t","key":{"text":"a","blob":""},"op":"delete","hlc":"1"}],"cursor":1,"more":true}"#,
                "exactly one"
            ),
            (
                #"{"format":1,"schemaVersion":1,"changes":[{"device":"d","sequence":1,"table":"t","key":{},"op":"delete","hlc":"1"}],"cursor":1,"more":true}"#,
                "one of"
            ),
            (
                #"{"format":1,"schemaVersion":1,"changes":[{"device":"d","sequence":1,"table":"t","key":null,"op":"delete","hlc":"x"}],"cursor":1,"more":true}"#,
                "integer"
            ),
        ])
    func refusedPulls(json: String, naming: String) {
        do {
            _ = try SyncPullResponse(json: Data(json.utf8))
            Issue.record("read \(json)")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains(naming), "\(json): \(context.debugDescription)")
        } catch {
            Issue.record("\(json): \(error)")
        }
    }

    /// A message's JSON with sorted keys: two messages spelled alike hold the same bytes, reals
    /// included (`-0.0` and `0.0` spell differently).
    private static func spelling(of message: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(message), as: UTF8.self)
    }
}

/// Random snapshot pages and pull answers with what JSON makes hard to spell, and damage done
/// to their JSON.
private enum RandomWire {
    /// A push of up to `maxChanges` changes.
    static func push(using random: inout SeededGenerator, maxChanges: Int) -> SyncPushRequest {
        SyncPushRequest(
            schemaVersion: Int64.random(in: .min ... .max, using: &random), changes: changes(using: &random, max: maxChanges),
            shared: sharedRows(using: &random, max: maxChanges / 4))
    }

    /// Up to `max` rows of shares.
    private static func sharedRows(using random: inout SeededGenerator, max: Int) -> [SyncSharedRow] {
        (0..<Int.random(in: 0...max, using: &random)).map { _ in
            SyncSharedRow(table: text(using: &random), key: value(using: &random), share: text(using: &random))
        }
    }

    /// A pull answer of up to `maxChanges` changes.
    static func pull(using random: inout SeededGenerator, maxChanges: Int) -> SyncPullResponse {
        var answer = SyncPullResponse(
            schemaVersion: Int64.random(in: .min ... .max, using: &random), changes: changes(using: &random, max: maxChanges),
            cursor: Int64.random(in: .min ... .max, using: &random), more: Bool.random(using: &random),
            deviceSequence: Bool.random(using: &random) ? Int64.random(in: .min ... .max, using: &random) : nil)
        answer.shared = sharedRows(using: &random, max: maxChanges / 4)
        answer.revoked = (0..<Int.random(in: 0...2, using: &random)).map { _ in text(using: &random) }
        answer.granted = (0..<Int.random(in: 0...2, using: &random)).map { _ in text(using: &random) }
        answer.rows = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            SyncRowState(
                table: text(using: &random), key: value(using: &random), share: Bool.random(using: &random) ? text(using: &random) : nil,
                changes: changes(using: &random, max: 3))
        }
        return answer
    }

    /// Up to `max` changes, sets and deletes.
    private static func changes(using random: inout SeededGenerator, max: Int) -> [SyncWireChange] {
        (0..<Int.random(in: 0...max, using: &random)).map { _ in
            let operation: SyncWireChange.Operation =
                Bool.random(using: &random) ? .delete : .set(column: text(using: &random), value: value(using: &random))
            return SyncWireChange(
                device: text(using: &random), sequence: Int64.random(in: .min ... .max, using: &random), table: text(using: &random),
                key: value(using: &random), operation: operation, hlc: Int64.random(in: .min ... .max, using: &random))
        }
    }

    /// A value, of any kind (`ignored` makes it a message of the tests' shape).
    static func value(using random: inout SeededGenerator, _ ignored: Int) -> SyncWireValue {
        value(using: &random)
    }

    /// A snapshot page of up to `maxRows` rows.
    static func page(using random: inout SeededGenerator, maxRows: Int) -> SyncSnapshotPage {
        let devices = (0..<Int.random(in: 1...4, using: &random)).map { _ in text(using: &random) }
        let rows = (0..<Int.random(in: 0...maxRows, using: &random)).map { _ in
            let cells = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                SyncSnapshotCell(column: text(using: &random), value: value(using: &random), stamp: stamp(devices, using: &random))
            }
            let deleted = Bool.random(using: &random) ? stamp(devices, using: &random) : nil
            return SyncSnapshotRow(table: text(using: &random), key: value(using: &random), deleted: deleted, cells: cells)
        }
        let next = Bool.random(using: &random) ? SyncSnapshotPosition(table: text(using: &random), key: text(using: &random)) : nil
        return SyncSnapshotPage(
            schemaVersion: Int64.random(in: .min ... .max, using: &random), cursor: Int64.random(in: 0 ... .max, using: &random),
            devices: devices, rows: rows, next: next)
    }

    private static func stamp(_ devices: [String], using random: inout SeededGenerator) -> SyncSnapshotStamp {
        SyncSnapshotStamp(hlc: Int64.random(in: .min ... .max, using: &random), device: Int.random(in: 0..<devices.count, using: &random))
    }

    private static let reals: [Double] = [
        0, -0.0, 1.5, 0.1, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, .nan, 1e21, 123_456_789,
    ]

    private static func value(using random: inout SeededGenerator) -> SyncWireValue {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: .null
        case 1: .integer([0, -1, .max, .min, Int64.random(in: .min ... .max, using: &random)].randomElement(using: &random) ?? 0)
        case 2: .real(reals.randomElement(using: &random) ?? 0)
        case 3: .real(Double(bitPattern: random.next()))
        case 4: .text(text(using: &random))
        default: .blob(Data((0..<Int.random(in: 0..<9, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        }
    }

    /// Pieces of text that JSON escapes, or that differ from each other by bytes only.
    private static let pieces = [
        "a", "notes", "\"", "\\", "/", "\u{0}", "\u{8}", "\t", "\n", "\u{C}", "\r", "\u{1F}", "\u{7F}", "\u{E9}", "e\u{301}", "🙂",
        "\u{FEFF}", "\u{2028}", "\u{10FFFF}", " ",
    ]

    private static func text(using random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0..<6, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
    }

    /// Bytes that change JSON's structure when they land in it.
    private static let structural = Array(#"[]{},:"\-0123456789.eE+ nulltruefalse"#.utf8) + [0x80, 0xC3, 0xFF, 0x00]

    /// `json` with one to three random changes: a byte replaced, removed or inserted, the end
    /// cut off, or a stretch repeated.
    static func damage(_ json: Data, using random: inout SeededGenerator) -> Data {
        var bytes = Array(json)
        for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &random)
            let byte = structural.randomElement(using: &random) ?? 0
            switch Int.random(in: 0..<5, using: &random) {
            case 0: bytes[at] = byte
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(byte, at: at)
            case 3: bytes.removeLast(Int.random(in: 1...min(bytes.count, 20), using: &random))
            default:
                let end = min(bytes.count, at + Int.random(in: 1...12, using: &random))
                bytes.insert(contentsOf: bytes[at..<end], at: end)
            }
        }
        return Data(bytes)
    }
}
