/// Marks one longest strictly increasing subsequence of `values` by patience
/// sorting, in O(n log n): `result[i]` is true when `values[i]` belongs to it.
///
/// The diff keeps these rows in place; every other row of the section moves.
/// Values in increasing order (rows that kept their order) cost O(1) each.
func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
    // Pile k holds runs of length k + 1; its top is the smallest value ending one.
    var pileTopValues: [Int] = []
    var pileTopIndexes: [Int] = []
    var predecessor = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
        let pile =
            (pileTopValues.last.map { $0 < value } ?? true)
            ? pileTopValues.count : pileTopValues.lowerBound(of: value)
        if pile > 0 { predecessor[index] = pileTopIndexes[pile - 1] }
        if pile == pileTopValues.count {
            pileTopValues.append(value)
            pileTopIndexes.append(index)
        } else {
            pileTopValues[pile] = value
            pileTopIndexes[pile] = index
        }
    }
    var members = [Bool](repeating: false, count: values.count)
    var index = pileTopIndexes.last ?? -1
    while index >= 0 {
        members[index] = true
        index = predecessor[index]
    }
    return members
}
