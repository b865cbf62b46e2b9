import SQLiteStoreCore

/// Rowid → sort keys and fingerprint, for every row of a result, in dense pages of 1,024
/// consecutive rowids: no hash tables of rows, no boxed values: for one numeric key, 16
/// bytes a row in a full page whose keys share a storage class (the fingerprint and the
/// value), 19 at most (a kind byte and a rowid offset more; see `KeyPage`, `KeyColumn`). The pages
/// are held in groups of `groupWidth` consecutive pages. A copy of the map (each delivered
/// result shares it) costs little when one side then changes a few rows: only the pages
/// those rows live in, their groups, and the table of groups are copied, O(√p) references
/// for p pages, never one per page.
///
/// Rows scattered over far-apart rowids cost a page each; SQLite assigns rowids in order,
/// so results share pages.
struct KeyMap: Sendable {
    static let groupWidth: Int64 = 32

    /// How many appended rows wait before they go to their pages.
    static let appendBatch = 16_384

    /// The pages of each group, by group number, `nil` where a page has no row.
    private var groups: [Int64: [KeyPage?]] = [:]
    /// Rows appended and not yet in their pages, in the order they came. Results come in
    /// key order, so at scattered rowids: put in one at a time, each row wrote to another of
    /// a thousand pages, with a cache miss or several (over a third of the library's part of
    /// reading a whole index, by `perf`). Sorted by rowid a batch at a time, they fill each
    /// page in a run.
    private var appended: [(rowID: Int64, keys: SortKeys, fingerprint: UInt64)] = []
    /// The rowid offsets of the rows of the pages made by a full batch (`KeyPage.forArrivals`),
    /// in the order they came: 1,024 a page, from the page's region (`arrivalRegions`) on.
    /// Kept in the pages, each page's offsets were an array freed when appending ended,
    /// between arrays that live on: 2 MiB left in malloc's arenas at a million rows. Here
    /// they are one array, freed whole.
    private var arrivals: [UInt16] = []
    /// The index of each page made by a full batch in `arrivals`, by page number.
    private var arrivalRegions: [Int64: Int] = [:]
    /// How many rows a full batch must bring a new page for the page to get room for all
    /// 1,024: rows at rowids far apart (random integer keys) make a page each, and room for a
    /// whole page was 20 KB a row, gigabytes for a result of a million such rows.
    static let rowsToReserveAPage = 4
    private(set) var count = 0
    let keyCount: Int

    init(keyCount: Int) { self.keyCount = keyCount }

    /// The number of the page of `rowID`, among all pages.
    private static func pageNumber(_ rowID: Int64) -> Int64 { rowID >> 10 }

    /// The group, the page in it, and the offset in the page of `rowID`.
    private static func split(_ rowID: Int64) -> (group: Int64, page: Int, offset: UInt16) {
        let page = pageNumber(rowID)
        return (page >> 5, Int(page & (groupWidth - 1)), UInt16(truncatingIfNeeded: rowID & (KeyPage.width - 1)))
    }

    /// `body` applied to the page of `rowID` and the row's index there, `nil` when the row is
    /// absent. The page is read where it is, not copied (a copy retains its arrays, through
    /// generic value witnesses: a fifth of placing a thousand rows).
    private func withRow<R>(_ rowID: Int64, _ body: (borrowing KeyPage, Int) -> R) -> R? {
        let (group, number, offset) = Self.split(rowID)
        return groups[group]?.withUnsafeBufferPointer { pages in pages[number]?.withRow(at: offset, body) } ?? nil
    }

    /// Changes the page of `rowID` in place, `nil` when it has no row (a group is made when absent).
    private mutating func withPage<R>(of rowID: Int64, _ body: (inout KeyPage?, UInt16) -> R) -> R {
        let (group, number, offset) = Self.split(rowID)
        return body(&groups[group, default: Array(repeating: nil, count: Int(Self.groupWidth))][number], offset)
    }

    subscript(rowID: Int64) -> SortKeys? { withRow(rowID) { page, index in page.keys(at: index) } }

    /// The first sort key of a row.
    func firstKey(of rowID: Int64) -> DatabaseValue? { withRow(rowID) { page, index in page.firstKey(at: index) } }

    /// Whether row `rowID` sorts before the row `otherRowID` whose keys are `keys`, in
    /// `order` (ties broken by rowid); a row absent from the map sorts as if its keys were NULL.
    func precedes(_ rowID: Int64, _ keys: SortKeys, _ otherRowID: Int64, in order: KeyOrder) -> Bool {
        let comparison =
            withRow(rowID) { page, index in page.compare(at: index, with: keys, in: order) } ?? order.compare({ _ in .null }, keys)
        return comparison != 0 ? comparison < 0 : rowID < otherRowID
    }

    func fingerprint(of rowID: Int64) -> UInt64? { withRow(rowID) { page, index in page.fingerprints[index] } }

    func contains(_ rowID: Int64) -> Bool { withRow(rowID) { _, _ in true } ?? false }

    /// Adds or replaces a row.
    mutating func set(_ keys: SortKeys, fingerprint: UInt64, for rowID: Int64) {
        let keyCount = keyCount
        let added = withPage(of: rowID) { page, offset in
            let found = page?.find(offset) ?? (index: 0, exists: false)
            if found.exists {
                page?.replace(at: found.index, keys, fingerprint: fingerprint)
            } else {
                if page == nil { page = KeyPage(keyCount: keyCount) }
                page?.insert(offset, keys, fingerprint: fingerprint, at: found.index)
            }
            return !found.exists
        }
        if added { count += 1 }
    }

    /// Adds a row known to be absent, in any order; `finishAppending()` must follow before
    /// the map is read or changed otherwise.
    mutating func append(_ keys: SortKeys, fingerprint: UInt64, for rowID: Int64) {
        appended.append((rowID, keys, fingerprint))
        count += 1
        if appended.count == Self.appendBatch { putAppendedInPages(isLast: false) }
    }

    /// Puts the appended rows in their pages, by rowid: one page lookup per run of rows
    /// sharing a page. A page made by a full batch with `rowsToReserveAPage` of its rows or
    /// more gets room for a whole page, since more batches follow, and its rows' offsets go
    /// to `arrivals`; one made by the last batch gets none: the first page of a list reads
    /// 258 rows over as many pages, and room for 1,024 rows in each was 4.7 MiB of the main
    /// thread's heap (malloc kept it when `sort()` trimmed it, out of reach of the background
    /// read's thread, which allocates in another arena).
    ///
    /// The batch grows as rows come (a first page of 258 rows needs no room for 16,384) and
    /// keeps its room for the next batch until the last.
    private mutating func putAppendedInPages(isLast: Bool) {
        var rows = appended
        appended = []
        let pages = rows.map { Self.pageNumber($0.rowID) }
        let order = Self.byPage(pages)
        let keyCount = keyCount
        var start = 0
        while start < order.count {
            var end = start + 1
            let pageNumber = pages[order[start]]
            while end < order.count, pages[order[end]] == pageNumber { end += 1 }
            var arrivals = self.arrivals
            self.arrivals = []
            var region = arrivalRegions[pageNumber]
            withPage(of: rows[order[start]].rowID) { page, _ in
                if page == nil, !isLast, end - start >= Self.rowsToReserveAPage {
                    page = KeyPage.forArrivals(keyCount: keyCount)
                    region = arrivals.count
                    arrivals.append(contentsOf: repeatElement(0, count: Int(KeyPage.width)))
                } else if page == nil {
                    page = KeyPage(keyCount: keyCount)
                }
                if let region {
                    for index in order[start..<end] {
                        arrivals[region + (page?.count ?? 0)] = Self.split(rows[index].rowID).offset
                        page?.appendArrived(rows[index].keys, fingerprint: rows[index].fingerprint)
                    }
                } else {
                    for index in order[start..<end] {
                        page?.append(Self.split(rows[index].rowID).offset, rows[index].keys, fingerprint: rows[index].fingerprint)
                    }
                }
            }
            self.arrivals = arrivals
            arrivalRegions[pageNumber] = region
            start = end
        }
        if !isLast {
            rows.removeAll(keepingCapacity: true)
            appended = rows
        }
    }

    /// The indexes of `pages` (page numbers) in the order of their page numbers: by counting
    /// when they span few pages (rowids a result reads are mostly dense), else by sorting.
    private static func byPage(_ pages: [Int64]) -> [Int] {
        guard let low = pages.min(), let high = pages.max() else { return [] }
        guard high - low < 2 * Int64(pages.count) else { return pages.indices.sorted { pages[$0] < pages[$1] } }
        var starts = [Int](repeating: 0, count: Int(high - low) + 2)
        for page in pages { starts[Int(page - low) + 1] += 1 }
        for slot in starts.indices.dropFirst() { starts[slot] += starts[slot - 1] }
        var order = [Int](repeating: 0, count: pages.count)
        for (index, page) in pages.enumerated() {
            order[starts[Int(page - low)]] = index
            starts[Int(page - low)] += 1
        }
        return order
    }

    /// Puts the appended rows in their pages and sorts the pages they went to.
    mutating func finishAppending() {
        putAppendedInPages(isLast: true)
        let arrivals = self.arrivals
        let regions = arrivalRegions
        self.arrivals = []
        arrivalRegions = [:]
        var spare: [UInt64] = []
        var spareKinds: [UInt8] = []
        // The numbers are copied out first: iterating `groups.keys` while mutating `groups`
        // would copy the table and keep every page's unsorted arrays alive until the loop ends.
        for group in Array(groups.keys) {
            for number in 0..<Int(Self.groupWidth) {
                guard let region = regions[group << 5 | Int64(number)], let count = groups[group]?[number]?.count else {
                    groups[group]?[number]?.sort()
                    continue
                }
                arrivals.withUnsafeBufferPointer { arrivals in
                    groups[group]?[number]?.sort(
                        arrivedAt: UnsafeBufferPointer(rebasing: arrivals[region..<(region + count)]), spare: &spare,
                        spareKinds: &spareKinds)
                }
            }
        }
    }

    mutating func remove(_ rowID: Int64) {
        let (group, number, offset) = Self.split(rowID)
        guard let found = groups[group]?[number]?.find(offset), found.exists else { return }
        groups[group]?[number]?.remove(at: found.index)
        count -= 1
        guard groups[group]?[number]?.count == 0 else { return }
        groups[group]?[number] = nil
        if groups[group]?.allSatisfy({ $0 == nil }) == true { groups[group] = nil }
    }

    /// Calls `body` with every row's rowid and fingerprint, in no particular order.
    func forEachFingerprint(_ body: (Int64, UInt64) -> Void) {
        for (group, pages) in groups {
            for (number, page) in pages.enumerated() {
                guard let page else { continue }
                let first = (group << 5 | Int64(number)) << 10
                for (index, fingerprint) in page.fingerprints.enumerated() { body(first | Int64(page.offset(at: index)), fingerprint) }
            }
        }
    }

    /// Calls `body` with the address and size of every heap buffer of the groups and pages
    /// (not the table of groups), for tests that measure what two copies share.
    func forEachBuffer(_ body: (UInt, Int) -> Void) {
        for pages in groups.values {
            visitBuffer(of: pages, body)
            for page in pages { page?.forEachBuffer(body) }
        }
    }
}
