/// The rowids of a result in sort order, in chunks of at most `maxChunk`, each with its row
/// count and the sort keys of its last row, its fence. Finding the chunk of a row compares
/// keys held here, in small arrays, instead of looking up O(log c) rows scattered over the
/// key map.
///
/// The chunks are kept in groups of at most `maxGroup`, each group with its chunks' row
/// counts and fences, and the groups with their row and chunk counts (`PrefixCounts`:
/// positions in O(log c) for c chunks). A copy shares the groups until written; writing a
/// row then copies its chunk, its group and the arrays of groups: O(√c) references for c
/// chunks, never one per chunk, so that a copy kept by a consumer does not make the next
/// change cost in proportion to the results.
struct RowChunks: Sendable {
    static let maxChunk = 1024
    static let maxGroup = 64

    /// Consecutive chunks: their rowids, row counts and fences. A class, so that copying the
    /// array of groups costs one reference each; changed only through `changeGroup`, which
    /// copies a group that another `RowChunks` shares (`@unchecked`: never changed while
    /// shared; for the same reason no two accesses to its properties can overlap, so they go
    /// unchecked at run time).
    fileprivate final class Group: @unchecked Sendable {
        @exclusivity(unchecked) var chunks: [[Int64]]
        @exclusivity(unchecked) var counts: PrefixCounts
        @exclusivity(unchecked) var fences: [SortKeys]

        init(chunks: [[Int64]] = [], counts: PrefixCounts = PrefixCounts(), fences: [SortKeys] = []) {
            self.chunks = chunks
            self.counts = counts
            self.fences = fences
        }
    }

    private var groups: [Group] = []
    /// The row count of each group.
    private var groupRows = PrefixCounts()
    /// The chunk count of each group.
    private var groupChunks = PrefixCounts()

    /// The number of rows.
    var count: Int { groupRows.total }
    var chunkCount: Int { groupChunks.total }

    /// The group of chunk `index`, and the chunk's index in it.
    private func place(of chunk: Int) -> (group: Int, chunk: Int) {
        guard let place = groupChunks.locate(chunk) else { preconditionFailure("chunk \(chunk) out of range 0..<\(chunkCount)") }
        return (place.chunk, place.offset)
    }

    /// The last row's rowid and keys (its chunk's fence); `nil` when there is none.
    var last: (rowID: Int64, keys: SortKeys)? {
        guard let group = groups.last, let rowID = group.chunks.last?.last, let keys = group.fences.last else { return nil }
        return (rowID, keys)
    }

    /// The rowids of chunk `index`, in order.
    subscript(index: Int) -> [Int64] {
        let (group, chunk) = place(of: index)
        return groups[group].chunks[chunk]
    }

    /// The chunk holding `position` and its offset there, or `nil` when out of bounds.
    func locate(_ position: Int) -> (chunk: Int, offset: Int)? {
        guard let inGroup = groupRows.locate(position), let inChunk = groups[inGroup.chunk].counts.locate(inGroup.offset) else {
            return nil
        }
        return (groupChunks.rowsBefore(inGroup.chunk) + inChunk.chunk, inChunk.offset)
    }

    /// The first chunk whose last row (rowid and keys) does not satisfy `isBefore` (the chunks
    /// whose last row does must form a prefix), with the number of rows before it and its
    /// rowids: `chunkCount`, `count` and no rowids when there is none. One walk down the
    /// groups, which finds the group of the chunk on the way.
    func firstChunk(notBefore isBefore: (Int64, SortKeys) -> Bool) -> (chunk: Int, rowsBefore: Int, rowIDs: [Int64]) {
        let group = Self.partition(groups.count) { groups[$0].isBefore(groups[$0].chunks.count - 1, isBefore) }
        guard group < groups.count else { return (chunkCount, count, []) }
        let found = groups[group]
        let local = Self.partition(found.chunks.count) { found.isBefore($0, isBefore) }
        return (
            groupChunks.rowsBefore(group) + local, groupRows.rowsBefore(group) + found.counts.rowsBefore(local),
            found.chunks[local]
        )
    }

    /// The number of leading indexes of `0..<count` for which `isBefore` holds.
    private static func partition(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Appends a row that sorts after every row present.
    mutating func append(_ rowID: Int64, _ keys: SortKeys) {
        if groups.isEmpty
            || groups[groups.count - 1].chunks.count >= Self.maxGroup / 2
                && groups[groups.count - 1].chunks[groups[groups.count - 1].chunks.count - 1].count >= Self.maxChunk / 2
        {
            groups.append(Group())
            groupRows.append(0)
            groupChunks.append(0)
        }
        let group = groups.count - 1
        let startsChunk = changeGroup(group) { group in
            let startsChunk = group.appendStartsChunk()
            group.appendRow(rowID, keys)
            return startsChunk
        }
        if startsChunk { groupChunks.add(1, at: group) }
        groupRows.add(1, at: group)
    }

    /// Inserts a row at `offset` in `chunk` (`chunk == chunkCount`: after every row), splitting
    /// a chunk that overflows; `keysOf` gives the keys of the rows present.
    mutating func insert(_ rowID: Int64, _ keys: SortKeys, chunk: Int, offset: Int, keysOf: (Int64) -> SortKeys) {
        guard !groups.isEmpty else { return append(rowID, keys) }
        let isAfterLast = chunk >= chunkCount
        let (group, local) = place(of: min(chunk, chunkCount - 1))
        let offset = isAfterLast ? groups[group].chunks[local].count : offset
        let addedChunk = changeGroup(group) { $0.insert(rowID, keys, chunk: local, offset: offset, keysOf: keysOf) }
        groupRows.add(1, at: group)
        if addedChunk { groupChunks.add(1, at: group) }
        if groups[group].chunks.count > Self.maxGroup { splitGroup(group) }
    }

    /// Removes the row at `offset` in `chunk`; `keysOf` gives the keys of the rows present.
    mutating func remove(chunk: Int, offset: Int, keysOf: (Int64) -> SortKeys) {
        let (group, local) = place(of: chunk)
        let removedChunk = changeGroup(group) { $0.remove(chunk: local, offset: offset, keysOf: keysOf) }
        groupRows.add(-1, at: group)
        guard removedChunk else { return }
        groupChunks.add(-1, at: group)
        if groups[group].chunks.isEmpty {
            groups.remove(at: group)
            groupRows.remove(at: group)
            groupChunks.remove(at: group)
        }
    }

    /// Runs `body` on group `index`, copied first if another `RowChunks` shares it.
    private mutating func changeGroup<R>(_ index: Int, _ body: (Group) -> R) -> R {
        if !isKnownUniquelyReferenced(&groups[index]) { groups[index] = groups[index].copy() }
        return body(groups[index])
    }

    /// Moves the second half of group `index`'s chunks into a new group after it.
    private mutating func splitGroup(_ index: Int) {
        let tail = changeGroup(index) { $0.removeSecondHalf() }
        groups.insert(tail, at: index + 1)
        groupRows.add(-tail.counts.total, at: index)
        groupRows.insert(tail.counts.total, at: index + 1)
        groupChunks.add(-tail.chunks.count, at: index)
        groupChunks.insert(tail.chunks.count, at: index + 1)
    }

    /// Every rowid, in order.
    func all() -> [Int64] {
        var all: [Int64] = []
        all.reserveCapacity(count)
        for group in groups {
            for chunk in group.chunks { all += chunk }
        }
        return all
    }

    /// Calls `body` with the address and size of every heap buffer holding rows, chunks or
    /// groups, for tests that measure what two copies share.
    func forEachBuffer(_ body: (UInt, Int) -> Void) {
        visitBuffer(of: groups, body)
        groupRows.forEachBuffer(body)
        groupChunks.forEachBuffer(body)
        for group in groups {
            visitBuffer(of: group.chunks, body)
            visitBuffer(of: group.fences, body)
            group.counts.forEachBuffer(body)
            for chunk in group.chunks { visitBuffer(of: chunk, body) }
        }
    }
}

extension RowChunks.Group {
    /// A group with the same chunks, sharing their rowids until written.
    func copy() -> RowChunks.Group { RowChunks.Group(chunks: chunks, counts: counts, fences: fences) }

    /// Whether the last row of chunk `index` satisfies `isBefore`.
    func isBefore(_ index: Int, _ isBefore: (Int64, SortKeys) -> Bool) -> Bool {
        isBefore(chunks[index][chunks[index].count - 1], fences[index])
    }

    /// Starts a chunk when there is none or the last is half full (appended results leave
    /// room for inserts); `true` when it did.
    func appendStartsChunk() -> Bool {
        guard chunks.isEmpty || chunks[chunks.count - 1].count >= RowChunks.maxChunk / 2 else { return false }
        chunks.append([])
        chunks[chunks.count - 1].reserveCapacity(RowChunks.maxChunk / 2)
        counts.append(0)
        fences.append(SortKeys(single: .null))
        return true
    }

    /// Appends a row to the last chunk.
    func appendRow(_ rowID: Int64, _ keys: SortKeys) {
        chunks[chunks.count - 1].append(rowID)
        counts.add(1, at: chunks.count - 1)
        fences[chunks.count - 1] = keys
    }

    /// Inserts a row at `offset` in `chunk`, splitting the chunk if it overflows; `true` when it did.
    func insert(_ rowID: Int64, _ keys: SortKeys, chunk: Int, offset: Int, keysOf: (Int64) -> SortKeys) -> Bool {
        chunks[chunk].insert(rowID, at: offset)
        counts.add(1, at: chunk)
        if offset == chunks[chunk].count - 1 { fences[chunk] = keys }
        guard chunks[chunk].count > RowChunks.maxChunk else { return false }
        let half = chunks.splitChunk(at: chunk, counts: &counts)
        fences.insert(fences[chunk], at: chunk + 1)
        fences[chunk] = keysOf(chunks[chunk][half - 1])
        return true
    }

    /// Removes the row at `offset` in `chunk`, and the chunk once empty; `true` when it did.
    func remove(chunk: Int, offset: Int, keysOf: (Int64) -> SortKeys) -> Bool {
        chunks[chunk].remove(at: offset)
        counts.add(-1, at: chunk)
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            counts.remove(at: chunk)
            fences.remove(at: chunk)
            return true
        }
        if offset == chunks[chunk].count { fences[chunk] = keysOf(chunks[chunk][offset - 1]) }
        return false
    }

    /// Removes the second half of the chunks and returns them as a group.
    func removeSecondHalf() -> RowChunks.Group {
        let half = chunks.count / 2
        let tail = RowChunks.Group(
            chunks: Array(chunks[half...]), counts: PrefixCounts(Array(counts.counts[half...])), fences: Array(fences[half...]))
        chunks.removeSubrange(half...)
        fences.removeSubrange(half...)
        counts = PrefixCounts(Array(counts.counts[..<half]))
        return tail
    }
}

/// Calls `body` with the address and byte size of `array`'s buffer, if it has one.
func visitBuffer<Element>(of array: [Element], _ body: (UInt, Int) -> Void) {
    array.withUnsafeBytes { bytes in
        if let address = bytes.baseAddress, array.capacity > 0 {
            body(UInt(bitPattern: address), array.capacity * MemoryLayout<Element>.stride)
        }
    }
}
