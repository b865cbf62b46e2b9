/// The rowids of a result in sort order, in chunks of at most `maxChunk`, with each chunk's
/// row count (`PrefixCounts`: positions in O(log c) for c chunks) and the sort keys of its
/// last row, its fence. Finding the chunk of a row compares keys held here, in one small
/// array, instead of looking up O(log c) rows scattered over the key map.
///
/// A copy shares the chunks until written; then only the chunks written are copied, along
/// with the per-chunk arrays (O(c) words).
struct RowChunks: Sendable {
    static let maxChunk = 1024
    private var chunks: [[Int64]] = []
    private var counts = PrefixCounts()
    private var fences: [SortKeys] = []

    /// The number of rows.
    var count: Int { counts.total }
    var chunkCount: Int { chunks.count }

    /// The rowids of chunk `index`, in order.
    subscript(index: Int) -> [Int64] { chunks[index] }

    /// The number of rows in the chunks before `chunk`.
    func rowsBefore(_ chunk: Int) -> Int { counts.rowsBefore(chunk) }

    /// The chunk holding `position` and its offset there, or `nil` when out of bounds.
    func locate(_ position: Int) -> (chunk: Int, offset: Int)? { counts.locate(position) }

    /// The number of leading chunks whose last row (rowid and keys) satisfies `isBefore`;
    /// they must form a prefix.
    func chunksBefore(_ isBefore: (Int64, SortKeys) -> Bool) -> Int {
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(chunks[middle][chunks[middle].count - 1], fences[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Appends a row that sorts after every row present.
    mutating func append(_ rowID: Int64, _ keys: SortKeys) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.maxChunk / 2 {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(Self.maxChunk / 2)
            counts.append(0)
            fences.append(keys)
        }
        chunks[chunks.count - 1].append(rowID)
        counts.add(1, at: chunks.count - 1)
        fences[chunks.count - 1] = keys
    }

    /// Inserts a row at `offset` in `chunk` (`chunk == chunkCount`: after every row), splitting
    /// a chunk that overflows; `keysOf` gives the keys of the rows present.
    mutating func insert(_ rowID: Int64, _ keys: SortKeys, chunk: Int, offset: Int, keysOf: (Int64) -> SortKeys) {
        guard !chunks.isEmpty else { return append(rowID, keys) }
        let isAfterLast = chunk == chunks.count
        let chunk = min(chunk, chunks.count - 1)
        let offset = isAfterLast ? chunks[chunk].count : offset
        chunks[chunk].insert(rowID, at: offset)
        counts.add(1, at: chunk)
        if offset == chunks[chunk].count - 1 { fences[chunk] = keys }
        guard chunks[chunk].count > Self.maxChunk else { return }
        let half = chunks.splitChunk(at: chunk, counts: &counts)
        fences.insert(fences[chunk], at: chunk + 1)
        fences[chunk] = keysOf(chunks[chunk][half - 1])
    }

    /// Removes the row at `offset` in `chunk`; `keysOf` gives the keys of the rows present.
    mutating func remove(chunk: Int, offset: Int, keysOf: (Int64) -> SortKeys) {
        chunks[chunk].remove(at: offset)
        counts.add(-1, at: chunk)
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            counts.remove(at: chunk)
            fences.remove(at: chunk)
        } else if offset == chunks[chunk].count {
            fences[chunk] = keysOf(chunks[chunk][offset - 1])
        }
    }

    /// Every rowid, in order.
    func all() -> [Int64] {
        var all: [Int64] = []
        all.reserveCapacity(count)
        for chunk in chunks { all += chunk }
        return all
    }
}
