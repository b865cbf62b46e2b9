import SQLiteStoreUTF8

extension String {
    /// The name as SQLite compares identifiers (table, column, index, savepoint and collation
    /// names): ASCII letters `A`–`Z` lowercased, every other byte kept.
    ///
    /// SQLite folds ASCII letters only (`sqlite3StrICmp`), so `"Notes"` and `"notes"` name one
    /// table, while `"CAFÉS"` and `"cafés"` name two; `lowercased()` would fold `É` as well and
    /// take one table's changes for the other's. Two names are one identifier exactly when their
    /// folds have the same UTF-8 bytes (see ``matchesSQLiteIdentifier(_:)``); String's `==` also
    /// equates canonically equivalent spellings (`"é"` and `"e\u{301}"`), which SQLite does not.
    package var sqliteIdentifierFolded: String {
        // A name without an ASCII capital, the usual one, is its own fold: no copy.
        guard utf8.contains(where: Self.isASCIIUppercase) else { return self }
        // Changing ASCII bytes keeps UTF-8 valid, so decoding repairs nothing.
        return String(decoding: utf8.map(Self.asciiLowercased), as: UTF8.self)
    }

    /// Whether `other` names the same identifier for SQLite: the same bytes but for the case of
    /// ASCII letters. The same spelling, the usual case, is compared in place.
    package func matchesSQLiteIdentifier(_ other: String) -> Bool {
        hasSameUTF8(as: other)
            || utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { Self.asciiLowercased($0) == Self.asciiLowercased($1) }
    }

    private static func isASCIIUppercase(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "A") < 26
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        isASCIIUppercase(byte) ? byte | 0x20 : byte
    }
}

extension Sequence<String> {
    /// Whether one of the names is spelled with `name`'s UTF-8 bytes: String's `contains`
    /// would also take a canonically equivalent spelling (`"e\u{301}"` for `"\u{E9}"`), a name
    /// SQLite and the sync state tell apart.
    package func containsSpelling(_ name: String) -> Bool {
        contains { $0.hasSameUTF8(as: name) }
    }
}

extension Dictionary where Key == String {
    /// The value under the key spelled with `name`'s UTF-8 bytes: the subscript would also take
    /// a canonically equivalent spelling (see ``Swift/Sequence/containsSpelling(_:)``).
    package func value(spelled name: String) -> Value? {
        guard let index = index(forKey: name), keys[index].hasSameUTF8(as: name) else { return nil }
        return self[index].value
    }
}
