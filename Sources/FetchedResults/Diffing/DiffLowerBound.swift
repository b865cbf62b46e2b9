extension Array where Element: Comparable {
    /// In an ascending array, the index of the first element not below
    /// `value` (`count` when there is none), by binary search.
    func lowerBound(of value: Element) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether an ascending array contains `value`, by binary search.
    func containsSorted(_ value: Element) -> Bool {
        let index = lowerBound(of: value)
        return index < count && self[index] == value
    }
}
