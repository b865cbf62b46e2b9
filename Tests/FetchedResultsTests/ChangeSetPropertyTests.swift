import Foundation
import SQLiteStoreResults
import Testing

/// Randomized properties of the diff, over seeded random snapshot pairs.
/// Each case has its own seed, printed on failure; replay a run with the
/// environment variable `CHANGESET_SEED`.
@Suite("ChangeSet properties")
struct ChangeSetPropertyTests {
    /// Runs `check` on `count` cases with their own seeds; records the first few failures.
    private func forEachCase(_ count: Int, _ check: (inout SnapshotGenerator) -> String?) {
        var seeds = SeededGenerator(seed: randomizedTestSeed)
        var failures = 0
        for _ in 0..<count where failures < 3 {
            let seed = seeds.next()
            var generator = SnapshotGenerator(random: SeededGenerator(seed: seed))
            if let failure = check(&generator) {
                Issue.record("case seed \(seed); replay the run with CHANGESET_SEED=\(randomizedTestSeed): \(failure)")
                failures += 1
            }
        }
    }

    private func describe(_ old: SectionedSnapshot<Int>, _ new: SectionedSnapshot<Int>, _ changeSet: ChangeSet) -> String {
        "\nold: \(old.sections.map { ($0.name ?? "nil", $0.ids) })\nnew: \(new.sections.map { ($0.name ?? "nil", $0.ids) })\n\(changeSet)"
    }

    @Test("applying the diff of random pairs gives the new snapshot, with every rule kept")
    func appliedDiffGivesNew() {
        forEachCase(20_000) { generator in
            let old = generator.snapshot()
            let new = Bool.random(using: &generator.random) ? generator.edit(old) : generator.snapshot()
            let updated = generator.updatedIDs()
            let changeSet = ChangeSet(from: old, to: new, updated: updated)
            let broken = problems(in: changeSet, old: old, new: new, updated: updated)
            guard broken.isEmpty else { return "\(broken)\(describe(old, new, changeSet))" }
            do {
                let applied = try changeSet.applied(to: old, new: new)
                return applied == new ? nil : "applied gives \(applied)\(describe(old, new, changeSet))"
            } catch {
                return "applied throws \(error)\(describe(old, new, changeSet))"
            }
        }
    }

    @Test("repeated IDs and section names still give a valid diff that applies")
    func repeatedIDs() {
        forEachCase(3_000) { generator in
            let old = generator.snapshotWithRepeats()
            let new = generator.snapshotWithRepeats()
            let changeSet = ChangeSet(from: old, to: new, updated: [0, 1])
            let broken = problems(in: changeSet, old: old, new: new, updated: [0, 1], uniqueIDs: false)
            guard broken.isEmpty else { return "\(broken)\(describe(old, new, changeSet))" }
            return (try? changeSet.applied(to: old, new: new)) == new ? nil : "does not apply\(describe(old, new, changeSet))"
        }
    }

    @Test("identical snapshots differ only by their updated rows")
    func identicalSnapshots() {
        forEachCase(2_000) { generator in
            let snapshot = generator.snapshot()
            let updated = generator.updatedIDs()
            let unchanged = ChangeSet(from: snapshot, to: snapshot)
            let changed = ChangeSet(from: snapshot, to: snapshot, updated: updated)
            let expected = snapshot.sections.flatMap(\.ids).filter(updated.contains).count
            guard unchanged.isEmpty, changed.updates.count == expected,
                changed == ChangeSet(updates: changed.updates)
            else { return "\(unchanged) / \(changed)\(describe(snapshot, snapshot, changed))" }
            return nil
        }
    }

    @Test("moving one row gives exactly one move and nothing else")
    func oneMovedRow() {
        forEachCase(2_000) { generator in
            let old = generator.snapshot()
            var sections = old.sections
            guard generator.moveRandomRow(in: &sections) else { return nil }
            let new = SectionedSnapshot(sections: sections)
            let changeSet = ChangeSet(from: old, to: new)
            guard changeSet.moves.count == 1, changeSet == ChangeSet(moves: changeSet.moves)
            else { return "not one move\(describe(old, new, changeSet))" }
            return nil
        }
    }
}
