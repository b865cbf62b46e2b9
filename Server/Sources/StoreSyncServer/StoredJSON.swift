import Foundation
import SQLiteStoreSyncProtocol

/// The text a change's key or value is stored as in `sync_changes` (`pk`, `value`): byte for
/// byte what `JSONEncoder` writes for it, since a replayed push is compared with the stored
/// change by this text. `NULL`, integers and texts are written without an encoder (two
/// `JSONEncoder` calls a change were a tenth of the server's CPU a push); reals and blobs, whose
/// spelling depends on the encoder's number and base64 writing, still go through one.
enum StoredJSON {
    /// The JSON of `value` in its object spelling, as `encoder` (a default `JSONEncoder`) writes it.
    static func text(of value: SyncWireValue, encoder: JSONEncoder) throws -> String {
        switch value {
        case .null: "null"
        case .integer(let integer): "{\"integer\":\"\(integer)\"}"
        case .text(let text): "{\"text\":" + quoted(text) + "}"
        case .real, .blob: String(decoding: try encoder.encode(value), as: UTF8.self)
        }
    }

    /// `text` as a JSON string, escaped as `JSONEncoder` escapes it: `"`, `\` and `/` behind a
    /// backslash, the control characters as `\b`, `\t`, `\n`, `\f`, `\r` or `\u00xx` (lowercase
    /// hexadecimal), every other character as its UTF-8 bytes.
    static func quoted(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscape) else { return "\"" + text + "\"" }
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            guard needsEscape(byte) else {
                bytes.append(byte)
                continue
            }
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            default: bytes += Array("u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
    }
}
