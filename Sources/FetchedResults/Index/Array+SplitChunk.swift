extension Array {
    /// Splits chunk `index` of this array of chunks in two halves, the second inserted after
    /// it, and keeps `counts`, the chunks' sizes, in step. Returns the first half's size.
    mutating func splitChunk<Item>(at index: Int, counts: inout PrefixCounts) -> Int where Element == [Item] {
        let half = self[index].count / 2
        let tail = [Item](self[index][half...])
        self[index].removeSubrange(half...)
        insert(tail, at: index + 1)
        counts.add(-tail.count, at: index)
        counts.insert(tail.count, at: index + 1)
        return half
    }
}
