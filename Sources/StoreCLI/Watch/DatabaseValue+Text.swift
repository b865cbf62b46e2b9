import SQLiteStoreCore

extension DatabaseValue {
    /// The text, when the value is TEXT.
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The value as a table cell shows it: text unquoted, NULL as `NULL`, blobs as `x'…'`.
    var displayText: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let text): text
        case .blob(let data): "x'" + data.map { String($0, radix: 16).leftPadded(to: 2, with: "0") }.joined() + "'"
        }
    }
}

extension String {
    /// The string with `pad` prepended until it is `count` characters long.
    func leftPadded(to count: Int, with pad: Character) -> String {
        String(repeating: pad, count: max(0, count - self.count)) + self
    }
}
