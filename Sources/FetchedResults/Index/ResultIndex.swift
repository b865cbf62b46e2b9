import Foundation
import SQLiteStoreCore

/// The in-memory index of a fetched result: rowids in sort order in `RowChunks`, each row's
/// sort keys and fingerprint in a `KeyMap`, and the sections with their names and row
/// counts (in `SectionCounts`: a section's start, and the section of a position, in O(log s + 64)).
///
/// Finding a row's chunk costs O(log c) comparisons with the chunks' last keys (held in
/// `RowChunks`, no key-map lookups), then a scan of its chunk for the rowid; inserting
/// costs O(log chunk size) key lookups more to place it; counting the rows before a chunk
/// is O(log c). A copy shares the chunks and key pages until written; writing a row then
/// copies its chunk and key page and O(√c) references to the groups holding them, not one
/// per chunk, so that a change costs the same whatever older copies a consumer keeps (the
/// section counts likewise: a block of them and O(s / 64) references). A row is looked for
/// only in the chunk the request's order puts it in: an index that is not sorted by that
/// order (a comparator that is not a total order) is reported as inconsistent, never
/// trapped on, and the controller reads its results again.
struct ResultIndex: Sendable {
    /// One section: the section key value of its first row, and its name.
    struct Section: Sendable {
        var value: DatabaseValue
        var name: String?
    }

    let order: KeyOrder
    /// Whether the first sort key sections the rows; otherwise there is one section.
    let isSectioned: Bool
    private var rows = RowChunks()
    private(set) var keys: KeyMap
    /// The sections in order (empty when not sectioned), in chunks: a copy changed in a few
    /// sections copies those chunks, not thousands of names.
    private(set) var sections = ChunkedArray<Section>()
    /// The row count of each section of `sections`.
    private(set) var sectionCounts = SectionCounts()
    /// The position of each section's first row while rows are appended (then the section
    /// counts are not built yet); empty once `finishAppending()` has built them.
    private var appendedSectionStarts: [Int] = []
    /// Whether these are only the first rows of the results (a first page, shown while the
    /// whole index is read): more rows follow them, and no change is merged into them.
    var isFirstPage = false

    var count: Int { rows.count }
    var sectionCount: Int { isSectioned ? sections.count : 1 }

    init(order: KeyOrder, isSectioned: Bool) {
        self.order = order
        self.isSectioned = isSectioned
        keys = KeyMap(keyCount: order.isAscending.count)
    }

    // MARK: Building

    /// Appends a row that sorts after every row already present (rows read in order). A
    /// row that starts a section names it with `sectionValue` (its section key value, or
    /// what SQLite read for it when the keys are ranks). `finishAppending()` must follow.
    mutating func append(_ rowID: Int64, _ rowKeys: SortKeys, fingerprint: UInt64, sectionValue: DatabaseValue) {
        rows.append(rowID, rowKeys)
        keys.append(rowKeys, fingerprint: fingerprint, for: rowID)
        guard isSectioned else { return }
        if let last = sections.last, order.compareSections(last.value, rowKeys.first) == 0 { return }
        sections.append(Section(value: rowKeys.first, name: Self.sectionName(sectionValue)))
        appendedSectionStarts.append(count - 1)
    }

    /// Makes the appended rows searchable.
    mutating func finishAppending() {
        keys.finishAppending()
        sectionCounts = SectionCounts(zip(appendedSectionStarts, appendedSectionStarts.dropFirst() + [count]).map { $1 - $0 })
        appendedSectionStarts = []
    }

    // MARK: Queries

    /// A row's position among all rows, with its chunk and its offset there.
    typealias Place = (flat: Int, chunk: Int, offset: Int)

    /// Where the row (`rowID`, `rowKeys`) is, or would be inserted: its chunk by the chunks'
    /// last keys, then its offset there by a binary search over its rows' keys.
    private func placement(of rowID: Int64, _ rowKeys: SortKeys) -> Place {
        let found = rows.firstChunk { order.precedes($1, $0, rowKeys, rowID) }
        var start = 0
        var end = found.rowIDs.count
        while start < end {
            let middle = (start + end) / 2
            if keys.precedes(found.rowIDs[middle], rowKeys, rowID, in: order) { start = middle + 1 } else { end = middle }
        }
        return (found.rowsBefore + start, found.chunk, start)
    }

    /// Where a row that sorts after the row at `previous` goes: right after it when it sorts
    /// before the row that follows it there (one key lookup: rows put back in order go one
    /// after the other), else as `placement(of:)` finds.
    private func placement(of rowID: Int64, _ rowKeys: SortKeys, after previous: Int) -> Place {
        let next = previous + 1
        guard next < count else { return (count, rows.chunkCount, 0) }
        if let (chunk, offset) = rows.locate(next), !keys.precedes(rows[chunk][offset], rowKeys, rowID, in: order) {
            return (next, chunk, offset)
        }
        return placement(of: rowID, rowKeys)
    }

    /// Where a present row is, or `nil` when it is absent or not in the chunk where the order
    /// puts it. The chunk is found by its last keys; the row in it by a scan of its rowids,
    /// contiguous, which costs less than looking up the keys of a binary search's rows.
    private func location(of rowID: Int64) -> Place? {
        keys[rowID].flatMap { location(of: rowID, $0) }
    }

    /// Where a present row whose keys are `rowKeys` is (see `location(of:)`).
    private func location(of rowID: Int64, _ rowKeys: SortKeys) -> Place? {
        let found = rows.firstChunk { order.precedes($1, $0, rowKeys, rowID) }
        guard let offset = found.rowIDs.firstIndex(of: rowID) else { return nil }
        return (found.rowsBefore + offset, found.chunk, offset)
    }

    /// A present row, its keys, and where it is.
    private typealias Located = (rowID: Int64, keys: SortKeys, place: Place)

    /// Where row `rowID` is when it is the row after `previous` and shares its keys with it
    /// (the children of a renamed row, given by rowid, lie one after the other): one check of
    /// the rowid there, instead of a search by keys. `nil` otherwise.
    private func place(of rowID: Int64, _ rowKeys: SortKeys, after previous: Located) -> Place? {
        let next = previous.place.flat + 1
        guard previous.rowID < rowID, order.compare({ previous.keys[$0] }, rowKeys) == 0, let (chunk, offset) = rows.locate(next),
            rows[chunk][offset] == rowID
        else { return nil }
        return (next, chunk, offset)
    }

    /// The last row's rowid and keys; `nil` when there is none. O(1), and also while rows are
    /// appended.
    var last: (rowID: Int64, keys: SortKeys)? { rows.last }

    /// Whether the row is in the results.
    func contains(_ rowID: Int64) -> Bool { keys.contains(rowID) }

    /// The position of a row among all rows, or `nil` if absent.
    func position(of rowID: Int64) -> Int? { location(of: rowID)?.flat }

    /// The fingerprint of a row's values, or `nil` if absent.
    func fingerprint(of rowID: Int64) -> UInt64? { keys.fingerprint(of: rowID) }

    /// The rowid at a position among all rows.
    func rowID(at position: Int) -> Int64? {
        rows.locate(position).map { rows[$0.chunk][$0.offset] }
    }

    /// The rowids at positions `range`, in order.
    func rowIDs(in range: Range<Int>) -> [Int64] {
        let range = range.clamped(to: 0..<count)
        guard var place = rows.locate(range.lowerBound) else { return [] }
        var result: [Int64] = []
        result.reserveCapacity(range.count)
        while result.count < range.count, place.chunk < rows.chunkCount {
            let rowIDs = rows[place.chunk]
            let end = min(rowIDs.count, place.offset + range.count - result.count)
            result += rowIDs[place.offset..<end]
            place = (place.chunk + 1, 0)
        }
        return result
    }

    /// The positions of the rows of section `index` (of every row without sections; none for
    /// a section that does not exist), also while rows are appended: O(1) then, else
    /// O(log s + 64).
    func positions(inSection index: Int) -> Range<Int> {
        guard isSectioned else { return index == 0 ? 0..<count : count..<count }
        guard index >= 0, index < sections.count else { return count..<count }
        guard appendedSectionStarts.isEmpty else {
            let end = index + 1 < appendedSectionStarts.count ? appendedSectionStarts[index + 1] : count
            return appendedSectionStarts[index]..<end
        }
        let start = sectionCounts.rowsBefore(index)
        return start..<(start + sectionCounts[index])
    }

    /// The rowids at rows `rows` of section `index` (fewer past its end), in order, also while
    /// rows are appended.
    func rowIDs(inSection index: Int, rows: Range<Int>) -> [Int64] {
        let section = positions(inSection: index)
        let start = section.lowerBound + min(rows.lowerBound, section.count)
        return rowIDs(in: start..<(section.lowerBound + min(rows.upperBound, section.count)))
    }

    /// The index of the section whose key is `value`, or where it would be inserted.
    func sectionIndex(of value: DatabaseValue) -> (index: Int, exists: Bool) {
        guard isSectioned else { return (0, true) }
        var low = 0
        var high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if order.compareSections(sections[middle].value, value) < 0 { low = middle + 1 } else { high = middle }
        }
        return (low, low < sections.count && order.compareSections(sections[low].value, value) == 0)
    }

    /// The name of the section holding section key `value` (`nil` for NULL, or when absent).
    func sectionName(of value: DatabaseValue) -> String? {
        let section = sectionIndex(of: value)
        return isSectioned && section.exists ? sections[section.index].name : nil
    }

    /// The position of the first row of section `index`: O(log s + 64).
    func sectionStart(_ index: Int) -> Int {
        guard isSectioned else { return 0 }
        return index < sections.count ? sectionCounts.rowsBefore(index) : count
    }

    /// The index path of the row at `position`: O(log s + 64).
    func indexPath(at position: Int) -> IndexPath {
        guard isSectioned, let (section, row) = sectionCounts.locate(position) else { return IndexPath(row: position, section: 0) }
        return IndexPath(row: row, section: section)
    }

    /// The index path of a row, or `nil` if absent.
    func indexPath(of rowID: Int64) -> IndexPath? {
        position(of: rowID).map(indexPath(at:))
    }

    /// The position among all rows of an index path, or `nil` when out of bounds.
    func position(of indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2 else { return nil }
        return position(section: indexPath.section, row: indexPath.row)
    }

    /// The position among all rows of row `row` of section `section`, or `nil` when out of
    /// bounds. (A controller asks with the index path's numbers: `IndexPath`'s getters, opaque
    /// calls into Foundation, made it copy its index for the call, a retain and a release of
    /// each of the index's arrays: about a fifth of `object(at:)`, by `perf`.)
    func position(section: Int, row: Int) -> Int? {
        guard section >= 0, section < sectionCount, row >= 0 else { return nil }
        let size = isSectioned ? sectionCounts[section] : count
        guard row < size else { return nil }
        return sectionStart(section) + row
    }

    /// The section key value of a row.
    func sectionValue(of rowID: Int64) -> DatabaseValue? { keys.firstKey(of: rowID) }

    /// How a section key value names its section: TEXT as it is, NULL as `nil`, INTEGER and
    /// REAL as Swift prints them (`2`, `2.0`), BLOB as an SQL literal (`X'00FF'`).
    static func sectionName(_ value: DatabaseValue) -> String? {
        switch value {
        case .null: nil
        case .text(let text): text
        default: value.description
        }
    }

    /// The rows' identities, section by section: O(n).
    func snapshot() -> SectionedSnapshot<Int64> {
        let all = rows.all()
        guard isSectioned else { return SectionedSnapshot(ids: all) }
        var start = 0
        return SectionedSnapshot(
            sections: zip(sections, sectionCounts.all).map { section, count in
                defer { start += count }
                return .init(name: section.name, ids: Array(all[start..<(start + count)]))
            })
    }

    /// Calls `body` with the address and size of every heap buffer of the index (but for the
    /// key map's table of page groups and the section names' strings), for tests that measure
    /// what two copies share.
    func forEachBuffer(_ body: (UInt, Int) -> Void) {
        rows.forEachBuffer(body)
        keys.forEachBuffer(body)
        sections.forEachBuffer(body)
        sectionCounts.forEachBuffer(body)
    }

    /// The rows present both here and in `newer` whose fingerprints differ: O(n).
    func rowsWithChangedValues(in newer: ResultIndex) -> Set<Int64> {
        var changed: Set<Int64> = []
        newer.keys.forEachFingerprint { rowID, fingerprint in
            if let old = keys.fingerprint(of: rowID), old != fingerprint { changed.insert(rowID) }
        }
        return changed
    }

    // MARK: Changes

    /// Gives each row of `changes` its new keys and fingerprint, placing it anew, or removes
    /// it when they are `nil`: every row present is located, then taken out from the last to
    /// the first (so that each is taken out at its position before the change), then the rows
    /// that stay are put back in their order (so that each is put at its position after the
    /// change, and the next one usually right after it). Cheaper than a remove and an insert
    /// per row, since a row that stays keeps its key-map entry, rewritten in place. Returns
    /// where the rows were and are, or `nil` when a row is in the results but not where the
    /// order puts it: the index is then inconsistent, and must be discarded.
    mutating func replace(_ changes: [(rowID: Int64, row: (keys: SortKeys, fingerprint: UInt64)?)]) -> ReplacedRows? {
        if let inPlace = replaceFingerprints(changes) { return inPlace }
        var present: [Located] = []
        for (rowID, _) in changes {
            guard let rowKeys = keys[rowID] else { continue }
            guard let place = present.last.flatMap({ place(of: rowID, rowKeys, after: $0) }) ?? location(of: rowID, rowKeys) else {
                return nil
            }
            present.append((rowID, rowKeys, place))
        }
        present.sort { $0.place.flat > $1.place.flat }
        var replaced = ReplacedRows()
        replaced.before.reserveCapacity(present.count)
        for row in present.reversed() {
            replaced.before.append(.init(rowID: row.rowID, position: row.place.flat, sectionValue: sectionValue(row.keys)))
        }
        for row in present { detach(row.rowID, row.keys, at: row.place) }
        var staying: [(rowID: Int64, keys: SortKeys, fingerprint: UInt64)] = []
        for (rowID, row) in changes {
            if let row { staying.append((rowID, row.keys, row.fingerprint)) } else { keys.remove(rowID) }
        }
        replaced.after.reserveCapacity(staying.count)
        var previous: PutBack?
        for index in inOrder(staying) {
            let row = staying[index]
            let put = insert(row.rowID, row.keys, fingerprint: row.fingerprint, after: previous)
            replaced.after.append(.init(rowID: row.rowID, position: put.position, sectionValue: sectionValue(row.keys)))
            previous = put
        }
        return replaced
    }

    /// When every row of `changes` is in the results with exactly the keys it is given (the
    /// rows whose included objects changed, say), gives each its new fingerprint where it is:
    /// nothing moves, and no row is taken out and put back (for the hundred items of a renamed
    /// list they include, that was most of the change). `nil`, changing nothing, otherwise.
    private mutating func replaceFingerprints(_ changes: [(rowID: Int64, row: (keys: SortKeys, fingerprint: UInt64)?)]) -> ReplacedRows? {
        var rows: [ReplacedRows.Row] = []
        rows.reserveCapacity(changes.count)
        for (rowID, row) in changes {
            guard let row, let stored = keys[rowID], stored.isIdentical(to: row.keys), let place = location(of: rowID, stored)
            else { return nil }
            rows.append(.init(rowID: rowID, position: place.flat, sectionValue: sectionValue(stored)))
        }
        for (rowID, row) in changes {
            if let row { keys.set(row.keys, fingerprint: row.fingerprint, for: rowID) }
        }
        rows.sort { $0.position < $1.position }
        return ReplacedRows(before: rows, after: rows)
    }

    /// The indexes of `rows` in the order of their keys and rowids. Rows given by rowid that
    /// share their keys (the children of a renamed row) are in order already: that is checked
    /// first. The rows are not moved, only their indexes.
    private func inOrder(_ rows: [(rowID: Int64, keys: SortKeys, fingerprint: UInt64)]) -> [Int] {
        rows.withUnsafeBufferPointer { rows in
            let precedes = { (a: Int, b: Int) in order.precedes(rows[a].keys, rows[a].rowID, rows[b].keys, rows[b].rowID) }
            let indexes = Array(rows.indices)
            return zip(indexes, indexes.dropFirst()).allSatisfy(precedes) ? indexes : indexes.sorted(by: precedes)
        }
    }

    /// The section key value of a row whose keys are `rowKeys`; `.null` when not sectioned.
    private func sectionValue(_ rowKeys: SortKeys) -> DatabaseValue { isSectioned ? rowKeys.first : .null }

    /// A row `replace` put back: its position, keys and section (0 when not sectioned), where
    /// the next one, which sorts after it, starts looking.
    private typealias PutBack = (position: Int, keys: SortKeys, section: Int)

    /// Inserts a row that is absent from the chunks (absent, or taken out by `replace`) and
    /// sorts after `previous`, if given. A row that becomes its section's first names it.
    private mutating func insert(_ rowID: Int64, _ rowKeys: SortKeys, fingerprint: UInt64, after previous: PutBack?) -> PutBack {
        // A row that shares its keys with the previous one (the children of a renamed row) most
        // likely follows it; others are searched for at once.
        let place =
            previous.flatMap { last in
                order.compare({ last.keys[$0] }, rowKeys) == 0 ? placement(of: rowID, rowKeys, after: last.position) : nil
            }
            ?? placement(of: rowID, rowKeys)
        keys.set(rowKeys, fingerprint: fingerprint, for: rowID)
        rows.insert(rowID, rowKeys, chunk: place.chunk, offset: place.offset) { keys[$0] ?? rowKeys }
        guard isSectioned else { return (place.flat, rowKeys, 0) }
        let section =
            previous.flatMap { order.compareSections($0.keys.first, rowKeys.first) == 0 ? (index: $0.section, exists: true) : nil }
            ?? sectionIndex(of: rowKeys.first)
        if !section.exists {
            sections.insert(Section(value: rowKeys.first, name: Self.sectionName(rowKeys.first)), at: section.index)
            sectionCounts.insert(1, at: section.index)
            return (place.flat, rowKeys, section.index)
        }
        sectionCounts.add(1, at: section.index)
        if place.flat == sectionStart(section.index) {
            sections[section.index].value = rowKeys.first
            sections[section.index].name = Self.sectionName(rowKeys.first)
        }
        return (place.flat, rowKeys, section.index)
    }

    /// Takes the row at `place`, whose keys are `rowKeys`, out of the chunks and the sections,
    /// keeping its key-map entry (which `insert` rewrites).
    private mutating func detach(_ rowID: Int64, _ rowKeys: SortKeys, at place: Place) {
        let (section, row) = isSectioned ? sectionCounts.locate(place.flat) ?? (0, 0) : (0, 0)
        let wasFirst = isSectioned && row == 0
        rows.remove(chunk: place.chunk, offset: place.offset) { keys[$0] ?? rowKeys }
        guard isSectioned else { return }
        sectionCounts.add(-1, at: section)
        if sectionCounts[section] == 0 {
            sections.remove(at: section)
            sectionCounts.remove(at: section)
        } else if wasFirst, let next = self.rowID(at: place.flat), let value = keys.firstKey(of: next) {
            sections[section].value = value
            sections[section].name = Self.sectionName(value)
        }
    }
}
