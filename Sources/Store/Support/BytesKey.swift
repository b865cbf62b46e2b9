import SQLiteStoreSyncProtocol

/// A string as a set member or dictionary key, equal to another only with the same UTF-8
/// bytes, as SQLite compares SQL, names and text: String's `==` equates canonically equivalent
/// spellings (`"é"` and `"e\u{301}"`). Hashed as the string (byte-equal strings hash alike).
struct BytesKey: Hashable {
    let string: String

    static func == (lhs: BytesKey, rhs: BytesKey) -> Bool { lhs.string.hasSameUTF8(as: rhs.string) }
    func hash(into hasher: inout Hasher) { hasher.combine(string) }
}
