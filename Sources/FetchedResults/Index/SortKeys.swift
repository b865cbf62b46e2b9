import SQLiteStoreCore

/// The sort key values of one row, most significant first; the first is the section key
/// when the results are sectioned. A single key is stored inline, without an array.
struct SortKeys: Sendable, Hashable {
    var first: DatabaseValue
    var rest: [DatabaseValue]

    init(_ values: [DatabaseValue]) {
        first = values.first ?? .null
        rest = Array(values.dropFirst())
    }

    /// The keys `first`, then `rest`.
    init(first: DatabaseValue, rest: [DatabaseValue]) {
        self.first = first
        self.rest = rest
    }

    /// The keys of a row with a single sort key.
    init(single value: DatabaseValue) {
        first = value
        rest = []
    }

    subscript(index: Int) -> DatabaseValue { index == 0 ? first : rest[index - 1] }

    /// Whether these keys are `other`'s exactly: the same storage classes and the same
    /// values, text byte for byte (`==` on text is Swift's canonical equivalence, and an
    /// INTEGER equals a REAL of the same value for collations; neither is the same key).
    func isIdentical(to other: SortKeys) -> Bool {
        guard rest.count == other.rest.count, Self.isIdentical(first, other.first) else { return false }
        return zip(rest, other.rest).allSatisfy { Self.isIdentical($0, $1) }
    }

    private static func isIdentical(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
        case (.blob(let a), .blob(let b)): a == b
        default: false
        }
    }
}

/// The total order of a request's rows, as SQLite's `ORDER BY` orders them: each sort key
/// in its direction with its collation's comparator, ties broken by ascending rowid.
struct KeyOrder: Sendable {
    /// The direction of each sort key.
    let isAscending: [Bool]
    /// The comparator of each sort key.
    let comparators: [KeyComparator]

    /// An order of `isAscending.count` keys, compared with `comparators` (`BINARY` by default).
    init(isAscending: [Bool], comparators: [KeyComparator]? = nil) {
        self.isAscending = isAscending
        self.comparators = comparators ?? isAscending.map { _ in .binary }
    }

    /// Whether row `a` sorts before row `b`.
    func precedes(_ a: SortKeys, _ aRowID: Int64, _ b: SortKeys, _ bRowID: Int64) -> Bool {
        let order = compare({ a[$0] }, b)
        return order != 0 ? order < 0 : aRowID < bRowID
    }

    /// Three-way comparison of a row whose key `i` is `a(i)` with a row's keys `b`: stored
    /// keys are compared where they are, without collecting them first.
    func compare(_ a: (Int) -> DatabaseValue, _ b: SortKeys) -> Int {
        for (index, ascending) in isAscending.enumerated() {
            let order = comparators[index].compare(a(index), b[index])
            if order != 0 { return ascending ? order : -order }
        }
        return 0
    }

    /// Three-way comparison of two section key values (the first sort key): zero when SQLite
    /// puts them in one section.
    func compareSections(_ a: DatabaseValue, _ b: DatabaseValue) -> Int {
        let order = (comparators.first ?? .binary).compare(a, b)
        return isAscending.first ?? true ? order : -order
    }
}
