// An independent checker of change sets, used by the randomized tests. It
// does not reuse the library's validation: it re-derives every rule of
// `ChangeSet` from the old and new snapshots.
import Foundation
import SQLiteStoreResults

/// Checks `changeSet` as the step from `old` to `new`; returns the broken rules.
/// With `uniqueIDs`, also checks that each listed row is listed for the right reason.
func problems(
    in changeSet: ChangeSet, old: SectionedSnapshot<Int>, new: SectionedSnapshot<Int>,
    updated: Set<Int>, uniqueIDs: Bool = true
) -> [String] {
    var checker = ChangeSetChecker(changeSet: changeSet, old: old, new: new, updated: updated)
    checker.checkStructure()
    if uniqueIDs { checker.checkReasons() }
    return checker.problems
}

private struct ChangeSetChecker {
    let changeSet: ChangeSet
    let old: SectionedSnapshot<Int>
    let new: SectionedSnapshot<Int>
    let updated: Set<Int>
    var problems: [String] = []

    init(changeSet: ChangeSet, old: SectionedSnapshot<Int>, new: SectionedSnapshot<Int>, updated: Set<Int>) {
        self.changeSet = changeSet
        self.old = old
        self.new = new
        self.updated = updated
    }

    private var oldSides: [IndexPath] { changeSet.deletes + changeSet.moves.map(\.from) + changeSet.updates }
    private var newSides: [IndexPath] { changeSet.inserts + changeSet.moves.map(\.to) }

    mutating func checkStructure() {
        expect(
            isStrictlySorted(changeSet.sectionDeletes) && isStrictlySorted(changeSet.sectionInserts),
            "section arrays not strictly sorted")
        expect(
            isStrictlySorted(changeSet.deletes) && isStrictlySorted(changeSet.inserts)
                && isStrictlySorted(changeSet.updates) && isStrictlySorted(changeSet.moves),
            "row arrays not strictly sorted")
        expect(changeSet.sectionDeletes.allSatisfy(old.sections.indices.contains), "section delete out of old bounds")
        expect(changeSet.sectionInserts.allSatisfy(new.sections.indices.contains), "section insert out of new bounds")
        expect(
            old.sections.count - changeSet.sectionDeletes.count + changeSet.sectionInserts.count
                == new.sections.count, "section counts do not add up")
        for path in oldSides {
            expect(old.id(at: path) != nil, "\(path) out of old bounds")
            expect(!changeSet.sectionDeletes.contains(path.section), "\(path) inside a deleted section")
        }
        for path in newSides {
            expect(new.id(at: path) != nil, "\(path) out of new bounds")
            expect(!changeSet.sectionInserts.contains(path.section), "\(path) inside an inserted section")
        }
        expect(Set(oldSides).count == oldSides.count, "an old row is listed twice")
        expect(Set(newSides).count == newSides.count, "a new row is listed twice")
        for move in changeSet.moves {
            expect(old.id(at: move.from) == new.id(at: move.to), "move \(move) changes the ID")
        }
    }

    mutating func checkReasons() {
        let oldPaths = positions(old)
        let newPaths = positions(new)
        for path in changeSet.deletes {
            guard let id = old.id(at: path) else { continue }
            expect(
                newPaths[id].map { changeSet.sectionInserts.contains($0.section) } ?? true,
                "deleted \(id) survives in a surviving section")
        }
        for path in changeSet.inserts {
            guard let id = new.id(at: path) else { continue }
            expect(
                oldPaths[id].map { changeSet.sectionDeletes.contains($0.section) } ?? true,
                "inserted \(id) existed in a surviving section")
        }
        for move in changeSet.moves {
            guard let id = old.id(at: move.from) else { continue }
            expect(move.isChanged == updated.contains(id), "move of \(id) has the wrong isChanged")
        }
        let movedIDs = Set(changeSet.moves.compactMap { old.id(at: $0.from) })
        let updatedIDs = Set(changeSet.updates.compactMap { old.id(at: $0) })
        expect(movedIDs.isDisjoint(with: updatedIDs), "an ID is both moved and updated")
        expect(updatedIDs.isSubset(of: updated), "an update of an ID that did not change")
        let listed = movedIDs.union(changeSet.deletes.compactMap { old.id(at: $0) })
            .union(changeSet.inserts.compactMap { new.id(at: $0) })
        for id in updated where !listed.contains(id) && !updatedIDs.contains(id) {
            guard let from = oldPaths[id], let to = newPaths[id] else { continue }
            expect(
                changeSet.sectionDeletes.contains(from.section) || changeSet.sectionInserts.contains(to.section),
                "changed \(id) is not reported")
        }
    }

    private func positions(_ snapshot: SectionedSnapshot<Int>) -> [Int: IndexPath] {
        var positions: [Int: IndexPath] = [:]
        for (section, content) in snapshot.sections.enumerated() {
            for (row, id) in content.ids.enumerated() { positions[id] = path(section, row) }
        }
        return positions
    }

    private func isStrictlySorted<T: Comparable>(_ values: [T]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
    }

    private mutating func expect(_ condition: Bool, _ problem: @autoclosure () -> String) {
        if !condition { problems.append(problem()) }
    }
}
