import Foundation

extension String {
    /// Whether `other` has the same UTF-8 bytes, as SQLite and the sync protocol compare names,
    /// keys and device ids. String's `==` also equates canonically equivalent spellings (`"é"`
    /// and `"e\u{301}"`), which they tell apart. Compares the bytes in place (`memcmp`), many
    /// times faster than the `utf8` views element by element.
    public func hasSameUTF8(as other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        return withUTF8Bytes(other) { a, b in memcmp(a, b, count) == 0 } ?? utf8.elementsEqual(other.utf8)
    }

    /// Whether the UTF-8 bytes order before `other`'s: SQLite's `BINARY` order, the order of a
    /// snapshot's rows and of device ids in the merge rule.
    public func utf8Precedes(_ other: String) -> Bool {
        let (count, otherCount) = (utf8.count, other.utf8.count)
        let order = withUTF8Bytes(other) { a, b in memcmp(a, b, Swift.min(count, otherCount)) }
        guard let order else { return utf8.lexicographicallyPrecedes(other.utf8) }
        return order != 0 ? order < 0 : count < otherCount
    }

    /// `body` on both strings' contiguous UTF-8 bytes, or `nil` when either has none to lend
    /// (a bridged string, or an empty one without an address).
    private func withUTF8Bytes<Answer>(
        _ other: String, _ body: (UnsafeRawPointer, UnsafeRawPointer) -> Answer
    ) -> Answer? {
        let result = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs -> Answer? in
                guard let a = mine.baseAddress, let b = theirs.baseAddress else { return nil }
                return body(a, b)
            }
        }
        guard case let value??? = result else { return nil }
        return value
    }
}
