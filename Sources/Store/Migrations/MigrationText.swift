/// How the migrator reads the text of a migration file.
enum MigrationText {
    /// `text` without a leading byte order mark and with CRLF and CR line endings turned into LF,
    /// so that a file checked out with other line endings is the same migration.
    static func normalized(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": scalars.append("\n")
            case "\n" where previousWasCarriageReturn: break
            default: scalars.append(scalar)
            }
            previousWasCarriageReturn = scalar == "\r"
        }
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        return String(scalars)
    }

    /// The checksum recorded in the ledger: the SHA-256 of the normalized text, in hexadecimal.
    static func checksum(of text: String) -> String {
        SHA256.hexDigest(of: normalized(text).utf8)
    }
}
