import SQLiteStoreCore

/// Rowid → sort keys and fingerprint, for every row of a result, in dense pages of 1,024
/// consecutive rowids: no hash tables of rows, no boxed values: 19 bytes a row for one
/// numeric key, 28 for a text of up to 16 bytes and a number (see `KeyColumn`). A copy of the map (each
/// delivered result shares it) costs little when one side then changes a few rows: only
/// the pages those rows live in, and the table of pages, are copied.
///
/// Rows scattered over far-apart rowids cost a page each; SQLite assigns rowids in order,
/// so results share pages.
struct KeyMap: Sendable {
    private var pages: [Int64: KeyPage] = [:]
    private(set) var count = 0
    let keyCount: Int

    init(keyCount: Int) { self.keyCount = keyCount }

    private static func split(_ rowID: Int64) -> (page: Int64, offset: UInt16) {
        (rowID >> 10, UInt16(truncatingIfNeeded: rowID & (KeyPage.width - 1)))
    }

    private func locate(_ rowID: Int64) -> (page: KeyPage, index: Int)? {
        let (number, offset) = Self.split(rowID)
        guard let page = pages[number] else { return nil }
        let found = page.find(offset)
        return found.exists ? (page, found.index) : nil
    }

    subscript(rowID: Int64) -> SortKeys? { locate(rowID).map { $0.page.keys(at: $0.index) } }

    /// The first sort key of a row.
    func firstKey(of rowID: Int64) -> DatabaseValue? { locate(rowID).map { $0.page.firstKey(at: $0.index) } }

    /// Whether row `rowID` sorts before the row `otherRowID` whose keys are `keys`, in
    /// `order` (ties broken by rowid); a row absent from the map sorts as if its keys were NULL.
    func precedes(_ rowID: Int64, _ keys: SortKeys, _ otherRowID: Int64, in order: KeyOrder) -> Bool {
        let comparison = locate(rowID).map { $0.page.compare(at: $0.index, with: keys, in: order) } ?? order.compare({ _ in .null }, keys)
        return comparison != 0 ? comparison < 0 : rowID < otherRowID
    }

    func fingerprint(of rowID: Int64) -> UInt64? { locate(rowID).map { $0.page.fingerprints[$0.index] } }

    func contains(_ rowID: Int64) -> Bool { locate(rowID) != nil }

    /// Adds or replaces a row.
    mutating func set(_ keys: SortKeys, fingerprint: UInt64, for rowID: Int64) {
        let (number, offset) = Self.split(rowID)
        var page = pages.removeValue(forKey: number) ?? KeyPage(keyCount: keyCount)
        let found = page.find(offset)
        if found.exists {
            page.replace(at: found.index, keys, fingerprint: fingerprint)
        } else {
            page.insert(offset, keys, fingerprint: fingerprint, at: found.index)
            count += 1
        }
        pages[number] = page
    }

    /// Adds a row known to be absent, in any order; `finishAppending()` must follow.
    mutating func append(_ keys: SortKeys, fingerprint: UInt64, for rowID: Int64) {
        let (number, offset) = Self.split(rowID)
        pages[number, default: KeyPage.forAppending(keyCount: keyCount)].append(offset, keys, fingerprint: fingerprint)
        count += 1
    }

    /// Sorts the pages that rows were appended to.
    mutating func finishAppending() {
        // The numbers are copied out first: iterating `pages.keys` while mutating `pages` would
        // copy the table and keep every page's unsorted arrays alive until the loop ends.
        for number in Array(pages.keys) { pages[number]?.sort() }
    }

    mutating func remove(_ rowID: Int64) {
        let (number, offset) = Self.split(rowID)
        guard var page = pages.removeValue(forKey: number) else { return }
        let found = page.find(offset)
        if found.exists {
            page.remove(at: found.index)
            count -= 1
        }
        if page.count > 0 { pages[number] = page }
    }

    /// Calls `body` with every row's rowid and fingerprint, in no particular order.
    func forEachFingerprint(_ body: (Int64, UInt64) -> Void) {
        for (number, page) in pages {
            for (offset, fingerprint) in zip(page.offsets, page.fingerprints) {
                body(number << 10 | Int64(offset), fingerprint)
            }
        }
    }
}
