/// Which old sections survive into which new ones.
///
/// Sections are matched by name, byte for byte (canonically equivalent names such as NFC
/// and NFD `"Café"` are different sections, as they are to SQLite); the k-th section with a name in the old
/// results matches the k-th section with that name in the new ones. Matched
/// sections that keep their relative order (a longest increasing
/// subsequence) survive; a matched section that changed order relative to
/// the others is deleted and inserted again, since a `ChangeSet` has no
/// section moves.
struct DiffSectionMatch {
    /// For each old section, the new section it survives as, or `nil` when deleted.
    let newOfOld: [Int?]
    /// For each new section, the old section it continues, or `nil` when inserted.
    let oldOfNew: [Int?]

    init(oldNames: [String?], newNames: [String?]) {
        var newOfOld = [Int?](repeating: nil, count: oldNames.count)
        var oldOfNew = [Int?](repeating: nil, count: newNames.count)
        var newIndexOfKey: [NameOccurrence: Int] = [:]
        for (index, key) in Self.keys(newNames).enumerated() {
            newIndexOfKey[key] = index
        }
        let candidates = Self.keys(oldNames).enumerated().compactMap { old, key in
            newIndexOfKey[key].map { (old: old, new: $0) }
        }
        let survives = longestIncreasingSubsequence(candidates.map(\.new))
        for (candidate, survives) in zip(candidates, survives) where survives {
            newOfOld[candidate.old] = candidate.new
            oldOfNew[candidate.new] = candidate.old
        }
        self.newOfOld = newOfOld
        self.oldOfNew = oldOfNew
    }

    /// A section name's UTF-8 bytes with the number of earlier sections of the same name.
    private struct NameOccurrence: Hashable {
        let name: [UInt8]?
        let ordinal: Int
    }

    private static func keys(_ names: [String?]) -> [NameOccurrence] {
        var seen: [[UInt8]?: Int] = [:]
        return names.map { name in
            let bytes = name.map { Array($0.utf8) }
            defer { seen[bytes, default: 0] += 1 }
            return NameOccurrence(name: bytes, ordinal: seen[bytes, default: 0])
        }
    }
}
