/// Text with nothing in it that ends a line, escaped as in a JSON string: what `store` prints
/// as one line of standard error, and the inside of the JSON strings `watch --json` writes.
///
/// A script reading either line by line gets one line per error or event, whatever the text
/// echoes (SQL with newlines, lists of migrations, a file name with a line break).
enum EscapedText {
    /// `text` with line feeds, carriage returns and tabs as `\n`, `\r`, `\t`, other control
    /// characters and the Unicode line and paragraph separators (U+0085, U+2028, U+2029) as
    /// `\u` and four hex digits, and, for a JSON string (`quotes`), `"` as `\"` and `\` as `\\`.
    static func escaping(_ text: String, quotes: Bool) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quotes: escaped += "\\\""
            case "\\" where quotes: escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || [0x85, 0x2028, 0x2029].contains(scalar.value):
                escaped += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4, with: "0")
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
