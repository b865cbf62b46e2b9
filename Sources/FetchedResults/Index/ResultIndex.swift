import Foundation
import SQLiteStoreCore

/// The in-memory index of a fetched result: rowids in sort order, in chunks of at most
/// `maxChunk` with their sort keys in a map, and the sections with their row counts.
///
/// Finding, inserting or removing a row costs O(log n) key comparisons plus a walk over the
/// chunk sizes (n / 1024 additions); a copy shares the chunks and key shards until written.
struct ResultIndex: Sendable {
    /// One section: its key value and how many rows it has.
    struct Section: Sendable, Equatable {
        var value: DatabaseValue
        var count: Int
    }

    static let maxChunk = 1024
    let order: KeyOrder
    /// Whether the first sort key sections the rows; otherwise there is one section.
    let isSectioned: Bool
    private(set) var chunks: [[Int64]] = []
    private(set) var keys = ShardedKeyMap()
    /// The sections in order (empty when not sectioned).
    private(set) var sections: [Section] = []

    var count: Int { keys.count }
    var sectionCount: Int { isSectioned ? sections.count : 1 }

    init(order: KeyOrder, isSectioned: Bool) {
        self.order = order
        self.isSectioned = isSectioned
    }

    // MARK: Building

    /// Appends a row that sorts after every row already present (rows read in order).
    mutating func append(_ rowID: Int64, _ rowKeys: SortKeys) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.maxChunk / 2 { chunks.append([]) }
        chunks[chunks.count - 1].append(rowID)
        keys.set(rowKeys, for: rowID)
        guard isSectioned else { return }
        if let last = sections.last, order.compareSections(last.value, rowKeys.first) == 0 {
            sections[sections.count - 1].count += 1
        } else {
            sections.append(Section(value: rowKeys.first, count: 1))
        }
    }

    // MARK: Queries

    /// The number of leading rows for which `isBefore` holds (they must form a prefix),
    /// with the chunk and offset where the first other row is.
    private func partitionPoint(_ isBefore: (Int64) -> Bool) -> (flat: Int, chunk: Int, offset: Int) {
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(chunks[middle][chunks[middle].count - 1]) { low = middle + 1 } else { high = middle }
        }
        let rowsBefore = chunks[..<low].reduce(0) { $0 + $1.count }
        guard low < chunks.count else { return (rowsBefore, low, 0) }
        let chunk = chunks[low]
        var start = 0
        var end = chunk.count
        while start < end {
            let middle = (start + end) / 2
            if isBefore(chunk[middle]) { start = middle + 1 } else { end = middle }
        }
        return (rowsBefore + start, low, start)
    }

    private func keys(of rowID: Int64) -> SortKeys { keys[rowID] ?? SortKeys([]) }

    private func location(of rowID: Int64, _ rowKeys: SortKeys) -> (flat: Int, chunk: Int, offset: Int) {
        partitionPoint { other in order.precedes(keys(of: other), other, rowKeys, rowID) }
    }

    /// The position of a row among all rows, or `nil` if absent.
    func position(of rowID: Int64) -> Int? {
        guard let rowKeys = keys[rowID] else { return nil }
        return location(of: rowID, rowKeys).flat
    }

    /// The rowid at a position among all rows.
    func rowID(at position: Int) -> Int64? {
        guard position >= 0 else { return nil }
        var remaining = position
        for chunk in chunks {
            if remaining < chunk.count { return chunk[remaining] }
            remaining -= chunk.count
        }
        return nil
    }

    /// The rowids at positions `range`, in order.
    func rowIDs(in range: Range<Int>) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(range.count)
        var chunkStart = 0
        for chunk in chunks {
            let chunkRange = chunkStart..<(chunkStart + chunk.count)
            chunkStart += chunk.count
            let overlap = chunkRange.clamped(to: range)
            if !overlap.isEmpty { result += chunk[(overlap.lowerBound - chunkRange.lowerBound)..<(overlap.upperBound - chunkRange.lowerBound)] }
            if chunkStart >= range.upperBound { break }
        }
        return result
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

    /// The position of the first row of section `index`.
    func sectionStart(_ index: Int) -> Int {
        guard isSectioned, index < sections.count else { return isSectioned ? count : 0 }
        let value = sections[index].value
        return partitionPoint { order.compareSections(keys(of: $0).first, value) < 0 }.flat
    }

    /// The index path of a row given its position.
    func indexPath(ofRow rowID: Int64, at position: Int) -> IndexPath {
        guard isSectioned else { return IndexPath(row: position, section: 0) }
        let section = sectionIndex(of: keys(of: rowID).first).index
        return IndexPath(row: position - sectionStart(section), section: section)
    }

    /// The index path of a row, or `nil` if absent.
    func indexPath(of rowID: Int64) -> IndexPath? {
        position(of: rowID).map { indexPath(ofRow: rowID, at: $0) }
    }

    /// The position among all rows of an index path, or `nil` when out of bounds.
    func position(of indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2, indexPath.section >= 0, indexPath.section < sectionCount, indexPath.row >= 0 else { return nil }
        let size = isSectioned ? sections[indexPath.section].count : count
        guard indexPath.row < size else { return nil }
        return sectionStart(indexPath.section) + indexPath.row
    }

    /// The section key value of a row.
    func sectionValue(of rowID: Int64) -> DatabaseValue? { keys[rowID]?.first }

    /// The section name of a section key value: text as is, NULL as `nil`, others as SQL literals.
    static func sectionName(_ value: DatabaseValue) -> String? {
        switch value {
        case .null: nil
        case .text(let text): text
        default: value.description
        }
    }

    /// The rows' identities, section by section, named by `sectionName(_:)`: O(n).
    func snapshot() -> SectionedSnapshot<Int64> {
        var all: [Int64] = []
        all.reserveCapacity(count)
        for chunk in chunks { all += chunk }
        guard isSectioned else { return SectionedSnapshot(ids: all) }
        var start = 0
        return SectionedSnapshot(sections: sections.map { section in
            defer { start += section.count }
            return .init(name: Self.sectionName(section.value), ids: Array(all[start..<(start + section.count)]))
        })
    }

    // MARK: Changes

    /// Inserts a row that is absent.
    mutating func insert(_ rowID: Int64, _ rowKeys: SortKeys) {
        let place = location(of: rowID, rowKeys)
        keys.set(rowKeys, for: rowID)
        if chunks.isEmpty {
            chunks.append([rowID])
        } else if place.chunk == chunks.count {
            chunks[chunks.count - 1].append(rowID)
            splitIfFull(chunks.count - 1)
        } else {
            chunks[place.chunk].insert(rowID, at: place.offset)
            splitIfFull(place.chunk)
        }
        guard isSectioned else { return }
        let section = sectionIndex(of: rowKeys.first)
        if section.exists {
            sections[section.index].count += 1
        } else {
            sections.insert(Section(value: rowKeys.first, count: 1), at: section.index)
        }
    }

    private mutating func splitIfFull(_ chunk: Int) {
        guard chunks[chunk].count > Self.maxChunk else { return }
        let half = chunks[chunk].count / 2
        let tail = Array(chunks[chunk][half...])
        chunks[chunk].removeSubrange(half...)
        chunks.insert(tail, at: chunk + 1)
    }

    /// Removes a row if present.
    mutating func remove(_ rowID: Int64) {
        guard let rowKeys = keys[rowID] else { return }
        let place = location(of: rowID, rowKeys)
        keys.remove(rowID)
        chunks[place.chunk].remove(at: place.offset)
        if chunks[place.chunk].isEmpty { chunks.remove(at: place.chunk) }
        guard isSectioned else { return }
        let section = sectionIndex(of: rowKeys.first).index
        sections[section].count -= 1
        if sections[section].count == 0 { sections.remove(at: section) }
    }
}
