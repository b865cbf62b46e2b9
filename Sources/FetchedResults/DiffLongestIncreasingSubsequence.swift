/// Marks one longest strictly increasing subsequence of `values` by patience
/// sorting, in O(n log n): `result[i]` is true when `values[i]` belongs to it.
///
/// The diff keeps these rows in place; every other row of the section moves.
func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
    // pileTops[k]: the index of the smallest value ending an increasing run of length k + 1.
    var pileTops: [Int] = []
    var predecessor = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
        var low = 0
        var high = pileTops.count
        while low < high {
            let middle = (low + high) / 2
            if values[pileTops[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { predecessor[index] = pileTops[low - 1] }
        if low == pileTops.count { pileTops.append(index) } else { pileTops[low] = index }
    }
    var members = [Bool](repeating: false, count: values.count)
    var index = pileTops.last ?? -1
    while index >= 0 {
        members[index] = true
        index = predecessor[index]
    }
    return members
}
