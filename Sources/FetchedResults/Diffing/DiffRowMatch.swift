/// Row identities reduced to flat integer indexes: the only part of the diff
/// that hashes IDs (one map of the new rows), so the rest works on integers.
///
/// Rows are numbered in flat order, section by section. Only the first
/// occurrence of a repeated ID (a programmer error) is matched: a later new
/// occurrence matches nothing, nor does a later old one.
struct DiffRowMatch {
    /// For each old row, the flat index of the new row with its ID, or -1.
    let newIndexOfOld: [Int]
    /// For each new row, whether an old row matches it.
    let isMatched: [Bool]
    /// For each new row, whether its ID is among the updated ones.
    let isUpdated: [Bool]

    init<ID: Hashable>(old: [[ID]], new: [[ID]], updated: Set<ID>) {
        var firstIndex: [ID: Int] = [:]
        firstIndex.reserveCapacity(new.reduce(0) { $0 + $1.count })
        var index = 0
        for ids in new {
            for id in ids {
                if let first = firstIndex.updateValue(index, forKey: id) { firstIndex[id] = first }
                index += 1
            }
        }
        var isMatched = [Bool](repeating: false, count: index)
        var newIndexOfOld: [Int] = []
        newIndexOfOld.reserveCapacity(old.reduce(0) { $0 + $1.count })
        for ids in old {
            for id in ids {
                guard let match = firstIndex[id], !isMatched[match] else {
                    newIndexOfOld.append(-1)
                    continue
                }
                isMatched[match] = true
                newIndexOfOld.append(match)
            }
        }
        var isUpdated = [Bool](repeating: false, count: index)
        for id in updated {
            if let match = firstIndex[id] { isUpdated[match] = true }
        }
        self.newIndexOfOld = newIndexOfOld
        self.isMatched = isMatched
        self.isUpdated = isUpdated
    }
}
