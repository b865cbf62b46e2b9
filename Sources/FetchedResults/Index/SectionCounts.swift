/// The row count of each section of a result, with a section's first row and the section of
/// a row in O(log s + B) for s sections, like `PrefixCounts`, but held in blocks of at most
/// 2B counts (B = `blockWidth`) with a `PrefixCounts` over the blocks' section and row totals.
///
/// Every delivered result shares its index's counts, so the first change after a delivery
/// copies what it writes: here one block and the O(s / B) references to the blocks, where a
/// flat array would copy all s counts and a Fenwick tree over them, and rebuild that tree for
/// every section added or removed (O(s) each, a sixth of renaming a list of 100 items under
/// 10,000 sections).
struct SectionCounts: Sendable {
    static let blockWidth = 64

    /// The counts, in order, in blocks of 1 to 2B counts.
    private var blocks: [[Int]] = []
    /// The number of sections in each block.
    private var blockSections = PrefixCounts()
    /// The number of rows in each block.
    private var blockRows = PrefixCounts()

    init() {}

    /// The sections of `counts`, in O(s).
    init(_ counts: [Int]) {
        blocks = stride(from: 0, to: counts.count, by: Self.blockWidth).map { start in
            Array(counts[start..<min(start + Self.blockWidth, counts.count)])
        }
        rebuildBlockTotals()
    }

    /// The number of sections.
    var count: Int { blockSections.total }
    /// The number of rows in all sections.
    var total: Int { blockRows.total }

    /// Every section's row count, in order: O(s).
    var all: [Int] { Array(blocks.joined()) }

    /// The row count of section `section`, which must exist.
    subscript(section: Int) -> Int {
        let (block, offset) = place(of: section)
        return blocks[block][offset]
    }

    /// The number of rows in the sections before `section` (all rows when `section == count`).
    func rowsBefore(_ section: Int) -> Int {
        guard section < count else { return total }
        let (block, offset) = place(of: section)
        return blockRows.rowsBefore(block) + blocks[block][..<offset].reduce(0, +)
    }

    /// The section holding row `position` and the row's offset there, or `nil` when out of bounds.
    func locate(_ position: Int) -> (section: Int, offset: Int)? {
        guard let (block, rowInBlock) = blockRows.locate(position) else { return nil }
        var remaining = rowInBlock
        for (offset, rows) in blocks[block].enumerated() {
            if remaining < rows { return (blockSections.rowsBefore(block) + offset, remaining) }
            remaining -= rows
        }
        return nil
    }

    mutating func add(_ delta: Int, at section: Int) {
        let (block, offset) = place(of: section)
        blocks[block][offset] += delta
        blockRows.add(delta, at: block)
    }

    /// Inserts a section of `rows` rows before section `section` (or at the end).
    mutating func insert(_ rows: Int, at section: Int) {
        guard !blocks.isEmpty else {
            self = SectionCounts([rows])
            return
        }
        let (block, offset) = section < count ? place(of: section) : (blocks.count - 1, blocks[blocks.count - 1].count)
        blocks[block].insert(rows, at: offset)
        blockSections.add(1, at: block)
        blockRows.add(rows, at: block)
        if blocks[block].count > 2 * Self.blockWidth {
            blocks.insert(Array(blocks[block][Self.blockWidth...]), at: block + 1)
            blocks[block].removeSubrange(Self.blockWidth...)
            rebuildBlockTotals()
        }
    }

    mutating func remove(at section: Int) {
        let (block, offset) = place(of: section)
        let rows = blocks[block].remove(at: offset)
        if blocks[block].isEmpty {
            blocks.remove(at: block)
            rebuildBlockTotals()
        } else {
            blockSections.add(-1, at: block)
            blockRows.add(-rows, at: block)
        }
    }

    /// Calls `body` with the address and size of each heap buffer held, for tests of sharing.
    func forEachBuffer(_ body: (UInt, Int) -> Void) {
        visitBuffer(of: blocks, body)
        for block in blocks { visitBuffer(of: block, body) }
        blockSections.forEachBuffer(body)
        blockRows.forEachBuffer(body)
    }

    /// The block of `section` and its offset there.
    private func place(of section: Int) -> (block: Int, offset: Int) {
        guard let place = blockSections.locate(section) else { preconditionFailure("section \(section) out of range 0..<\(count)") }
        return (place.chunk, place.offset)
    }

    private mutating func rebuildBlockTotals() {
        blockSections = PrefixCounts(blocks.map(\.count))
        blockRows = PrefixCounts(blocks.map { $0.reduce(0, +) })
    }
}
