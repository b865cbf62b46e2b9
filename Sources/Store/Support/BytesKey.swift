import SQLiteStoreUTF8

/// A string as a set member or dictionary key, equal to another only with the same UTF-8
/// bytes, as SQLite compares SQL, names and text: String's `==` equates canonically equivalent
/// spellings (`"é"` and `"e\u{301}"`). Hashed as the string (byte-equal strings hash alike).
package struct BytesKey: Hashable {
    package let string: String

    package init(string: String) {
        self.string = string
    }

    package static func == (lhs: BytesKey, rhs: BytesKey) -> Bool { lhs.string.hasSameUTF8(as: rhs.string) }
    package func hash(into hasher: inout Hasher) { hasher.combine(string) }
}
