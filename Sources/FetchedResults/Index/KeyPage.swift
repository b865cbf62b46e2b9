import SQLiteStoreCore

/// The rows of a `KeyMap` whose rowids share all bits but the low 10: their rowid offsets
/// (2 bytes each, ascending; none in a full page, where row `i` is at offset `i`),
/// fingerprints and sort keys, column-wise and dense.
struct KeyPage: Sendable {
    static let width: Int64 = 1024

    /// The rowid offset of each row, ascending; empty in a full sorted page (every offset
    /// present): a list over every row of a table fills its pages, and 2 bytes a row were 2
    /// MiB at a million rows.
    private var offsets: [UInt16] = []
    private(set) var fingerprints: [UInt64] = []
    private var columns: [KeyColumn]
    /// Whether rows were appended out of rowid order since the last `sort()`.
    private var isUnsorted = false

    init(keyCount: Int) { columns = Array(repeating: KeyColumn(), count: keyCount) }

    /// An empty page with room for a full page of rows, for a result being read: its arrays
    /// do not grow (and leave freed copies behind) while rows arrive by `appendArrived`,
    /// their offsets kept by the caller. `sort(arrivedAt:spare:spareKinds:)` orders them: in place
    /// when the page is full, in arrays of their size otherwise.
    static func forArrivals(keyCount: Int) -> KeyPage {
        var page = KeyPage(keyCount: keyCount)
        page.fingerprints.reserveCapacity(Int(width))
        for column in page.columns.indices { page.columns[column].reserveCapacity(Int(width)) }
        page.isUnsorted = true
        return page
    }

    var count: Int { fingerprints.count }

    /// Whether every offset is present, in order (`offsets` then empty).
    private var isFull: Bool { offsets.isEmpty && !fingerprints.isEmpty }

    /// The rowid offset of row `index`.
    func offset(at index: Int) -> UInt16 { isFull ? UInt16(truncatingIfNeeded: index) : offsets[index] }

    /// Drops the offsets of a full page, sorted: each row's is its index.
    private mutating func elideFullOffsets() {
        if offsets.count == Int(Self.width), !isUnsorted { offsets = [] }
    }

    /// Lists the offsets of a full page again, before it loses a row or takes one in any order.
    private mutating func listOffsets() {
        if isFull { offsets = (0..<UInt16(Self.width)).map { $0 } }
    }

    /// The index of `offset`, or where it would be inserted: at once in a full page (every
    /// offset present, in order), else by binary search.
    func find(_ offset: UInt16) -> (index: Int, exists: Bool) {
        if isFull { return (Int(offset), true) }
        var low = 0
        var high = offsets.count
        while low < high {
            let middle = (low + high) / 2
            if offsets[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return (low, low < offsets.count && offsets[low] == offset)
    }

    /// `body` applied to this page and the index of `offset`, `nil` when absent.
    func withRow<R>(at offset: UInt16, _ body: (borrowing KeyPage, Int) -> R) -> R? {
        let found = find(offset)
        return found.exists ? body(self, found.index) : nil
    }

    // The columns are read through a buffer pointer: `columns[i].value(at:)` would copy the
    // column, retaining its four arrays, on every key read.

    func keys(at index: Int) -> SortKeys {
        columns.withUnsafeBufferPointer { columns in SortKeys(columns.indices.map { columns[$0].value(at: index) }) }
    }

    /// Three-way comparison, in `order`, of row `index`'s keys with `keys`.
    func compare(at index: Int, with keys: SortKeys, in order: KeyOrder) -> Int {
        columns.withUnsafeBufferPointer { columns in order.compare({ columns[$0].value(at: index) }, keys) }
    }

    func firstKey(at index: Int) -> DatabaseValue {
        columns.withUnsafeBufferPointer { columns in columns.isEmpty ? .null : columns[0].value(at: index) }
    }

    mutating func insert(_ offset: UInt16, _ keys: SortKeys, fingerprint: UInt64, at index: Int) {
        offsets.insert(offset, at: index)
        fingerprints.insert(fingerprint, at: index)
        for column in columns.indices { columns[column].insert(keys[column], at: index) }
        elideFullOffsets()
    }

    /// Replaces the keys and fingerprint of row `index`, in place.
    mutating func replace(at index: Int, _ keys: SortKeys, fingerprint: UInt64) {
        fingerprints[index] = fingerprint
        for column in columns.indices { columns[column].replace(at: index, with: keys[column]) }
    }

    /// Adds a row in any order; `sort()` must run before the page is searched.
    mutating func append(_ offset: UInt16, _ keys: SortKeys, fingerprint: UInt64) {
        listOffsets()
        if let last = offsets.last, last > offset { isUnsorted = true }
        offsets.append(offset)
        fingerprints.append(fingerprint)
        for column in columns.indices { columns[column].append(keys[column]) }
    }

    /// Adds a row in any order to a page made `forArrivals`, its offset kept by the caller.
    mutating func appendArrived(_ keys: SortKeys, fingerprint: UInt64) {
        fingerprints.append(fingerprint)
        for column in columns.indices { columns[column].append(keys[column]) }
    }

    mutating func remove(at index: Int) {
        listOffsets()
        offsets.remove(at: index)
        fingerprints.remove(at: index)
        for column in columns.indices { columns[column].remove(at: index) }
    }

    /// Calls `body` with the address and size of each heap buffer held, for tests of sharing.
    func forEachBuffer(_ body: (UInt, Int) -> Void) {
        visitBuffer(of: offsets, body)
        visitBuffer(of: fingerprints, body)
        visitBuffer(of: columns, body)
        for column in columns { column.forEachBuffer(body) }
    }

    /// The indexes of `offsets` (unique, below `width`) in the order of their offsets. A page
    /// holding a sixteenth of its rowids or more puts each index in its offset's slot and
    /// reads the slots in order, with no comparison sort (a stable sort was a sixth of the
    /// library's part of reading a whole index, by `perf`); fewer rows are sorted as integers.
    private static func orderByOffset(_ offsets: [UInt16]) -> [Int] {
        guard offsets.count * 16 >= Int(width) else {
            return offsets.indices.map { UInt32(offsets[$0]) << 16 | UInt32($0) }.sorted().map { Int($0 & 0xFFFF) }
        }
        var slots = [Int16](repeating: -1, count: Int(width))
        for (index, offset) in offsets.enumerated() { slots[Int(offset)] = Int16(index) }
        var order: [Int] = []
        order.reserveCapacity(offsets.count)
        for slot in slots where slot >= 0 { order.append(Int(slot)) }
        return order
    }

    /// Puts the rows of a page made `forArrivals`, whose offsets are `arrivals` in the order
    /// the rows came, in rowid order: a full page in place (its offsets are then its
    /// indexes: none are listed), through `spare` and `spareKinds` (see `Array.scatter`); another in arrays
    /// of its size, its offsets listed.
    mutating func sort(arrivedAt arrivals: UnsafeBufferPointer<UInt16>, spare: inout [UInt64], spareKinds: inout [UInt8]) {
        precondition(arrivals.count == count, "an offset per row")
        isUnsorted = false
        guard arrivals.count == Int(Self.width) else {
            offsets = Array(arrivals)
            isUnsorted = true
            return sort()
        }
        fingerprints.scatter(to: arrivals, into: &spare)
        for column in columns.indices { columns[column].scatter(to: arrivals, into: &spare, kinds: &spareKinds) }
    }

    /// Puts appended rows in rowid order, in arrays of their size.
    mutating func sort() {
        defer { elideFullOffsets() }
        guard isUnsorted else { return }
        isUnsorted = false
        let order = Self.orderByOffset(offsets)
        // A full page's offsets are its indexes: none are made, only to be dropped.
        offsets = order.count == Int(Self.width) ? [] : order.map { offsets[$0] }
        fingerprints = order.map { fingerprints[$0] }
        for column in columns.indices { columns[column].permute(order) }
    }
}
