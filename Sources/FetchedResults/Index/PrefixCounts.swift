/// The row counts of consecutive runs of rows (an index's chunks, or its sections), with
/// the rows before any run and the run of any position in O(log c) for c runs (a Fenwick
/// tree). Appending a run or changing a count costs O(log c); inserting or removing a run
/// in the middle rebuilds, in O(c).
struct PrefixCounts: Sendable {
    private(set) var counts: [Int] = []
    /// `tree[i]` sums `counts[(i - lowbit(i))..<i]`; `tree[0]` is unused.
    private var tree: [Int] = [0]
    private(set) var total = 0

    var isEmpty: Bool { counts.isEmpty }

    init() {}

    /// The runs of `counts`, in O(c).
    init(_ counts: [Int]) {
        self.counts = counts
        rebuild()
    }

    /// The number of rows in the chunks before `chunk`.
    func rowsBefore(_ chunk: Int) -> Int {
        var sum = 0
        var index = chunk
        while index > 0 {
            sum += tree[index]
            index &= index - 1
        }
        return sum
    }

    /// The chunk holding `position` and its offset there, or `nil` when out of bounds.
    func locate(_ position: Int) -> (chunk: Int, offset: Int)? {
        guard position >= 0, position < total else { return nil }
        var chunk = 0
        var remaining = position
        var step = 1
        while step * 2 <= counts.count { step *= 2 }
        while step > 0 {
            if chunk + step <= counts.count, tree[chunk + step] <= remaining {
                chunk += step
                remaining -= tree[chunk]
            }
            step /= 2
        }
        return (chunk, remaining)
    }

    mutating func append(_ count: Int) {
        counts.append(count)
        let index = counts.count
        tree.append(count + rowsBefore(index - 1) - rowsBefore(index & (index - 1)))
        total += count
    }

    mutating func add(_ delta: Int, at chunk: Int) {
        counts[chunk] += delta
        total += delta
        var index = chunk + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }

    mutating func insert(_ count: Int, at chunk: Int) {
        counts.insert(count, at: chunk)
        rebuild()
    }

    mutating func remove(at chunk: Int) {
        counts.remove(at: chunk)
        rebuild()
    }

    /// Calls `body` with the address and size of each heap buffer held, for tests of sharing.
    func forEachBuffer(_ body: (UInt, Int) -> Void) {
        visitBuffer(of: counts, body)
        visitBuffer(of: tree, body)
    }

    private mutating func rebuild() {
        tree = [0] + counts
        for index in 1..<max(1, tree.count) {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
        }
        total = counts.reduce(0, +)
    }
}
