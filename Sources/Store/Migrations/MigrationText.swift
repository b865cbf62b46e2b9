/// How the migrator reads the text of a migration file.
enum MigrationText {
    /// `text` without a leading byte order mark and with CRLF and CR line endings turned into LF,
    /// so that a file checked out with other line endings is the same migration. One pass over
    /// the bytes; a text with neither is returned as it is, without a copy.
    static func normalized(_ text: String) -> String {
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let hasByteOrderMark = text.utf8.starts(with: byteOrderMark)
        guard hasByteOrderMark || text.utf8.contains(UInt8(ascii: "\r")) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var previousWasCarriageReturn = false
        for byte in text.utf8.dropFirst(hasByteOrderMark ? byteOrderMark.count : 0) {
            switch byte {
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "\n") where previousWasCarriageReturn: break
            default: bytes.append(byte)
            }
            previousWasCarriageReturn = byte == UInt8(ascii: "\r")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The checksum recorded in the ledger: the SHA-256 of the text `normalized` gave, in hexadecimal.
    static func checksum(ofNormalized text: String) -> String {
        SHA256.hexDigest(of: text.utf8)
    }
}
