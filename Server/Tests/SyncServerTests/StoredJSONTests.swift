import Foundation
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

@testable import StoreSyncServer

/// The stored text of keys and values, written without `JSONEncoder`, must stay byte for byte
/// what `JSONEncoder` wrote: a replayed push is compared with the stored changes by it, so any
/// difference would refuse a device's retry as a fork.
@Suite("Stored JSON of keys and values")
struct StoredJSONTests {
    @Test("Every value is stored as JSONEncoder spells it")
    func sameBytesAsJSONEncoder() throws {
        let encoder = JSONEncoder()
        var values: [SyncWireValue] = [.null, .integer(0), .integer(-1), .integer(.min), .integer(.max), .real(1.5), .real(.nan)]
        values += [.real(-.infinity), .blob(Data()), .blob(Data((0...255).map(UInt8.init))), .text(""), .text("plain text")]
        values += (0..<128).map { SyncWireValue.text("a" + String(UnicodeScalar(UInt8($0))) + "b") }
        values += ["é", "e\u{301}", "😀", "\u{2028}\u{2029}", "\u{7F}\u{80}\u{FFFF}", "\"/\\\u{0}\u{1F}", "日本語/テキスト"].map(SyncWireValue.text)
        var random = SplitMix64(seed: 58)
        let alphabet = Array("aZ09 \"\\/\u{0}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1B}\u{7F}é€😀\u{2028}")
        for _ in 0..<2_000 {
            let length = Int(random.next() % 12)
            values.append(.text(String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })))
            values.append(.integer(Int64(bitPattern: random.next())))
        }
        for value in values {
            let expected = String(decoding: try encoder.encode(value), as: UTF8.self)
            #expect(try StoredJSON.text(of: value, encoder: encoder).utf8.elementsEqual(expected.utf8), "\(value)")
        }
    }
}
