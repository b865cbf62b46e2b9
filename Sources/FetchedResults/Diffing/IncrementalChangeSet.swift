import Foundation
import SQLiteStoreCore

/// The change set between two results of the same request that differ only in the rows
/// `changed`, in O(k log n) for k changed rows: only those rows are located, in both.
///
/// Unchanged rows keep their keys, hence their order and section. A section survives when
/// it is in both results under the same name (byte for byte); a section renamed because its
/// first row changed is deleted and inserted, since a change set keeps the old names of the
/// sections that survive. A changed row present in both results stays in place (an update)
/// when it has as many unchanged rows before it in both, in the same surviving section, and
/// keeps its order relative to the other such rows (a longest increasing run); otherwise it
/// moves. Sections appear or disappear only where changed rows were or are, and rows in
/// deleted or inserted sections are implied.
enum IncrementalChangeSet {
    private struct Placement {
        let rowID: Int64
        let position: Int
        /// Unchanged rows before this one.
        let gap: Int
        let path: IndexPath
        let sectionValue: DatabaseValue
    }

    /// The change set when the changed rows are known only by rowid: each is located in both results.
    static func make(from old: ResultIndex, to new: ResultIndex, changed: Set<Int64>) -> ChangeSet {
        make(from: old, to: new, ReplacedRows(before: located(changed, in: old), after: located(changed, in: new)))
    }

    /// The change set from `old` to `new`, which `new.replace` made from `old` and described as `replaced`.
    static func make(from old: ResultIndex, to new: ResultIndex, _ replaced: ReplacedRows) -> ChangeSet {
        let before = placements(replaced.before, in: old)
        let after = placements(replaced.after, in: new)
        var survival = SectionSurvival(old: old, new: new)
        // A section that does not survive but is on the other side too was renamed: it is
        // deleted and inserted, whichever side its changed rows are on.
        var sectionDeletes = Set<Int>()
        var sectionInserts = Set<Int>()
        for value in survival.lostSectionValues(before: before.values, after: after.values) {
            let (oldSection, newSection) = (old.sectionIndex(of: value), new.sectionIndex(of: value))
            if oldSection.exists { sectionDeletes.insert(oldSection.index) }
            if newSection.exists { sectionInserts.insert(newSection.index) }
        }
        var deletes: [IndexPath] = []
        var inserts: [IndexPath] = []
        var moves: [ChangeSet.Move] = []
        var candidates: [(from: Placement, to: Placement)] = []
        for (rowID, from) in before where survival.before(from) {
            guard let to = after[rowID], survival.after(to) else { deletes.append(from.path); continue }
            if from.gap == to.gap, old.order.compareSections(from.sectionValue, to.sectionValue) == 0 {
                candidates.append((from, to))
            } else {
                moves.append(ChangeSet.Move(from: from.path, to: to.path, isChanged: true))
            }
        }
        for (rowID, to) in after where survival.after(to) && !(before[rowID].map { survival.before($0) } ?? false) {
            inserts.append(to.path)
        }
        candidates.sort { $0.from.position < $1.from.position }
        let staying = longestIncreasingSubsequence(candidates.map(\.to.position))
        var updates: [IndexPath] = []
        for (candidate, stays) in zip(candidates, staying) {
            if stays {
                updates.append(candidate.from.path)
            } else {
                moves.append(ChangeSet.Move(from: candidate.from.path, to: candidate.to.path, isChanged: true))
            }
        }
        return ChangeSet(
            sectionDeletes: Array(sectionDeletes), sectionInserts: Array(sectionInserts),
            deletes: deletes, inserts: inserts, moves: moves, updates: updates)
    }

    /// Whether the sections of changed rows survive: in both results under the same name,
    /// byte for byte. Each section is looked up once per side, not once per row.
    private struct SectionSurvival {
        /// A section of the old or the new results, by index.
        private struct Section: Hashable {
            let isNew: Bool
            let index: Int
        }

        let old: ResultIndex
        let new: ResultIndex
        /// The sections asked about: their key value, and whether they survive.
        private var known: [Section: (value: DatabaseValue, survives: Bool)] = [:]

        init(old: ResultIndex, new: ResultIndex) {
            self.old = old
            self.new = new
        }

        /// Whether the section of a row placed in the old results survives.
        mutating func before(_ placement: Placement) -> Bool { survives(placement, Section(isNew: false, index: placement.path.section)) }

        /// Whether the section of a row placed in the new results survives.
        mutating func after(_ placement: Placement) -> Bool { survives(placement, Section(isNew: true, index: placement.path.section)) }

        /// The key values of the sections, among those the placements are in, that do not survive.
        mutating func lostSectionValues(before: some Sequence<Placement>, after: some Sequence<Placement>) -> [DatabaseValue] {
            for placement in before { _ = self.before(placement) }
            for placement in after { _ = self.after(placement) }
            return known.values.filter { !$0.survives }.map(\.value)
        }

        private mutating func survives(_ placement: Placement, _ section: Section) -> Bool {
            if let answer = known[section] { return answer.survives }
            let survives = Self.survives(placement.sectionValue, from: old, to: new)
            known[section] = (placement.sectionValue, survives)
            return survives
        }

        private static func survives(_ value: DatabaseValue, from old: ResultIndex, to new: ResultIndex) -> Bool {
            guard old.isSectioned else { return true }
            guard old.sectionIndex(of: value).exists, new.sectionIndex(of: value).exists else { return false }
            switch (old.sectionName(of: value), new.sectionName(of: value)) {
            case (nil, nil): return true
            case (let a?, let b?): return a.utf8.elementsEqual(b.utf8)
            default: return false
            }
        }
    }

    /// The changed rows present in `index`, by ascending position.
    private static func located(_ changed: Set<Int64>, in index: ResultIndex) -> [ReplacedRows.Row] {
        var located: [ReplacedRows.Row] = []
        for rowID in changed {
            guard let position = index.position(of: rowID) else { continue }
            located.append(
                .init(rowID: rowID, position: position, sectionValue: index.isSectioned ? index.sectionValue(of: rowID) ?? .null : .null))
        }
        located.sort { $0.position < $1.position }
        return located
    }

    /// The placements of changed rows of `index` given by ascending position, with the count
    /// of unchanged rows before each.
    private static func placements(_ located: [ReplacedRows.Row], in index: ResultIndex) -> [Int64: Placement] {
        var placements: [Int64: Placement] = [:]
        placements.reserveCapacity(located.count)
        for (rank, row) in located.enumerated() {
            placements[row.rowID] = Placement(
                rowID: row.rowID, position: row.position, gap: row.position - rank,
                path: index.indexPath(at: row.position), sectionValue: row.sectionValue)
        }
        return placements
    }
}
