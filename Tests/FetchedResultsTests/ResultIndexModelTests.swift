import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// The controller's index against a plain sorted array of (key, rowid): positions, rowids at
/// positions, ranges and sections after every insert and removal, over enough rows to split
/// and empty chunks; copies taken along the way keep their rows while the original changes.
@Suite struct ResultIndexModelTests {
    private struct Row: Equatable {
        let key: Int64
        let rowID: Int64
        static func < (a: Row, b: Row) -> Bool { a.key != b.key ? a.key < b.key : a.rowID < b.rowID }
    }

    @Test(arguments: [false, true]) func matchesASortedArray(sectioned: Bool) {
        var random = SeededGenerator()
        let order = KeyOrder(isAscending: [true])
        var index = ResultIndex(order: order, isSectioned: sectioned)
        var model: [Row] = []
        var copies: [(ResultIndex, [Row])] = []
        for step in 0..<6_000 {
            let rowID = Int64.random(in: 0..<4_000, using: &random)
            if let found = model.firstIndex(where: { $0.rowID == rowID }) {
                let removed = index.replace([(rowID, nil)]) != nil
                #expect(removed, "seed \(random.seed), step \(step)")
                model.remove(at: found)
            } else {
                // Few distinct keys: long sections and many ties broken by rowid.
                let row = Row(key: Int64.random(in: 0..<40, using: &random), rowID: rowID)
                let inserted = index.replace([(rowID, (SortKeys(single: .integer(row.key)), UInt64(step)))]) != nil
                #expect(inserted, "seed \(random.seed), step \(step)")
                model.insert(row, at: model.firstIndex { row < $0 } ?? model.count)
            }
            if step % 500 == 0 { copies.append((index, model)) }
            if step % 97 == 0 { check(index, against: model, "seed \(random.seed), step \(step)") }
        }
        check(index, against: model, "seed \(random.seed), end")
        for (copy, rows) in copies { check(copy, against: rows, "seed \(random.seed), copy") }
    }

    /// `replace` also says where each row was and is, as the change set needs.
    @Test("replace: batches of rows given new keys, added and removed at once, as the controller applies a transaction")
    func batchesMatchASortedArray() {
        var random = SeededGenerator()
        for sectioned in [false, true] {
            var index = ResultIndex(order: KeyOrder(isAscending: [true]), isSectioned: sectioned)
            var model: [Row] = []
            for batch in 0..<300 {
                var changes: [(rowID: Int64, row: (keys: SortKeys, fingerprint: UInt64)?)] = []
                // One batch in three gives every row of one key another key, in rowid order, as
                // renaming a related row does: they are taken out and put back one after the other.
                let renamed = batch % 3 == 0 ? model.randomElement(using: &random)?.key : nil
                let sharedKey = renamed.map { _ in Int64.random(in: 0..<40, using: &random) }
                let rowIDs =
                    renamed.map { key in model.filter { $0.key == key }.map(\.rowID) }
                    ?? Array(Set((0..<Int.random(in: 1...40, using: &random)).map { _ in Int64.random(in: 0..<3_000, using: &random) }))
                for rowID in rowIDs {
                    model.removeAll { $0.rowID == rowID }
                    guard Int.random(in: 0..<4, using: &random) > 0 else {
                        changes.append((rowID, nil))
                        continue
                    }
                    let row = Row(key: sharedKey ?? Int64.random(in: 0..<40, using: &random), rowID: rowID)
                    changes.append((rowID, (SortKeys(single: .integer(row.key)), UInt64(batch))))
                    model.append(row)
                }
                model.sort(by: <)
                let old = index
                let replaced = index.replace(changes)
                #expect(replaced != nil, "seed \(random.seed), batch \(batch)")
                checkReplaced(replaced, changes.map(\.rowID), from: old, to: index, "seed \(random.seed), batch \(batch)")
                for (rowID, row) in changes where row == nil { #expect(!index.contains(rowID), "seed \(random.seed), batch \(batch)") }
                if batch % 10 == 0 { check(index, against: model, "seed \(random.seed), batch \(batch), sectioned \(sectioned)") }
            }
            check(index, against: model, "seed \(random.seed), end, sectioned \(sectioned)")
            for row in model where row.rowID % 11 == 0 {
                #expect(index.fingerprint(of: row.rowID) != nil && index.contains(row.rowID), "seed \(random.seed)")
            }
        }
    }

    /// `replaced` lists the changed rows of each side by position, with their section key values.
    private func checkReplaced(_ replaced: ReplacedRows?, _ changed: [Int64], from old: ResultIndex, to new: ResultIndex, _ note: Comment) {
        for (rows, index) in [(replaced?.before, old), (replaced?.after, new)] {
            let expected = changed.compactMap { rowID in index.position(of: rowID).map { [rowID, Int64($0)] } }.sorted { $0[1] < $1[1] }
            #expect(rows?.map { [$0.rowID, Int64($0.position)] } == expected, note)
            for row in rows ?? [] {
                #expect(row.sectionValue == (index.isSectioned ? index.sectionValue(of: row.rowID) : .null), note)
            }
        }
    }

    private func check(_ index: ResultIndex, against model: [Row], _ note: Comment) {
        #expect(index.count == model.count, note)
        #expect(index.rowIDs(in: 0..<model.count) == model.map(\.rowID), note)
        for (position, row) in model.enumerated() where position % 7 == 0 {
            #expect(index.position(of: row.rowID) == position, note)
            #expect(index.rowID(at: position) == row.rowID, note)
        }
        let middle = model.count / 3
        #expect(index.rowIDs(in: middle..<(middle + 1_500)) == model[middle..<min(model.count, middle + 1_500)].map(\.rowID), note)
        guard index.isSectioned else { return }
        var start = 0
        for (section, key) in Set(model.map(\.key)).sorted().enumerated() {
            let size = model.count { $0.key == key }
            #expect(index.sectionStart(section) == start, note)
            #expect(index.sectionCounts.all[section] == size, note)
            #expect(index.indexPath(at: start) == IndexPath(row: 0, section: section), note)
            #expect(index.indexPath(at: start + size - 1) == IndexPath(row: size - 1, section: section), note)
            start += size
        }
        #expect(index.sectionCount == Set(model.map(\.key)).count, note)
    }
}
