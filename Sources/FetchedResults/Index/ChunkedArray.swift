/// An array kept in chunks of at most `maxChunk` elements, for arrays that are copied (each
/// delivered result shares its index) and then changed a little: the copy shares the chunks
/// until written, so changing, inserting or removing one element copies one chunk and the
/// list of chunks, not every element. Access by position costs O(log c) for c chunks.
struct ChunkedArray<Element: Sendable>: RandomAccessCollection, Sendable {
    static var maxChunk: Int { 64 }

    private var chunks: [[Element]] = []
    private var counts = PrefixCounts()

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { counts.total }

    subscript(position: Int) -> Element {
        get {
            let (chunk, offset) = locate(position)
            return chunks[chunk][offset]
        }
        set {
            let (chunk, offset) = locate(position)
            chunks[chunk][offset] = newValue
        }
    }

    mutating func append(_ element: Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.maxChunk {
            chunks.append([element])
            counts.append(1)
        } else {
            chunks[chunks.count - 1].append(element)
            counts.add(1, at: chunks.count - 1)
        }
    }

    /// Inserts `element` at `position` (`endIndex` appends), splitting a chunk that overflows.
    mutating func insert(_ element: Element, at position: Int) {
        guard position < endIndex else { return append(element) }
        let (chunk, offset) = locate(position)
        chunks[chunk].insert(element, at: offset)
        counts.add(1, at: chunk)
        if chunks[chunk].count > Self.maxChunk { _ = chunks.splitChunk(at: chunk, counts: &counts) }
    }

    /// Removes the element at `position`, and its chunk once empty.
    @discardableResult
    mutating func remove(at position: Int) -> Element {
        let (chunk, offset) = locate(position)
        let element = chunks[chunk].remove(at: offset)
        counts.add(-1, at: chunk)
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            counts.remove(at: chunk)
        }
        return element
    }

    /// Calls `body` with the address and size of each heap buffer held (not those the elements
    /// hold), for tests that measure what two copies share.
    func forEachBuffer(_ body: (UInt, Int) -> Void) {
        visitBuffer(of: chunks, body)
        for chunk in chunks { visitBuffer(of: chunk, body) }
        counts.forEachBuffer(body)
    }

    /// The chunk and offset of `position`, which must be in bounds, as for an `Array`.
    private func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        guard let place = counts.locate(position) else { preconditionFailure("index \(position) out of range 0..<\(endIndex)") }
        return place
    }
}
