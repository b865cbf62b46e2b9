import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// The controller's compact key storage gives back exactly the values it was given, for
/// every storage class and text length, across pages, after inserts, removals and appends.
@Suite struct KeyMapTests {
    static let values: [DatabaseValue] = [
        .null, .integer(0), .integer(Int64.min), .integer(Int64.max), .real(-0.0), .real(2.5), .real(.infinity),
        .text(""), .text("a"), .text("eight by"), .text("nine byte"), .text("exactly 16 bytes"), .text("seventeen bytes!!"),
        .text("Cafe\u{301}"), .text("nul\0inside"), .blob(Data()), .blob(Data([0, 255])),
    ]

    @Test func valuesRoundTripInEveryOrderOfWrites() {
        var random = SeededGenerator()
        var map = KeyMap(keyCount: 2)
        var expected: [Int64: SortKeys] = [:]
        let rowIDs: [Int64] = [-2049, -1, 0, 1, 2, 1023, 1024, 5000, 1 << 40, Int64.max]
        for (number, rowID) in rowIDs.enumerated() {
            let keys = SortKeys([Self.values[number % Self.values.count], Self.values[(number * 7) % Self.values.count]])
            map.append(keys, fingerprint: UInt64(number), for: rowID)
            expected[rowID] = keys
        }
        map.finishAppending()
        for step in 0..<2_000 {
            let rowID = rowIDs.randomElement(using: &random)!
            if Bool.random(using: &random) {
                map.remove(rowID)
                expected[rowID] = nil
            } else {
                let keys = SortKeys([Self.values.randomElement(using: &random)!, Self.values.randomElement(using: &random)!])
                map.set(keys, fingerprint: UInt64(step), for: rowID)
                expected[rowID] = keys
            }
            for rowID in rowIDs {
                #expect(map[rowID].map(Self.exact) == expected[rowID].map(Self.exact), "seed \(random.seed), step \(step), rowid \(rowID)")
            }
            #expect(map.count == expected.count)
        }
    }

    @Test("A full page (every rowid of it present) finds each row, and stops being full when one leaves")
    func fullPage() {
        var map = KeyMap(keyCount: 1)
        let full = Int64(KeyPage.width)..<(2 * Int64(KeyPage.width))
        for rowID in full.reversed() { map.append(SortKeys(single: .integer(rowID * 10)), fingerprint: UInt64(rowID), for: rowID) }
        map.finishAppending()
        for rowID in full { #expect(map[rowID] == SortKeys(single: .integer(rowID * 10)) && map.fingerprint(of: rowID) == UInt64(rowID)) }
        #expect(!map.contains(full.lowerBound - 1) && !map.contains(full.upperBound))
        map.remove(full.lowerBound + 5)
        map.set(SortKeys(single: .integer(-1)), fingerprint: 7, for: full.lowerBound + 6)
        #expect(!map.contains(full.lowerBound + 5))
        for rowID in full where rowID != full.lowerBound + 5 {
            #expect(map.fingerprint(of: rowID) == (rowID == full.lowerBound + 6 ? 7 : UInt64(rowID)), "rowid \(rowID)")
        }
        map.set(SortKeys(single: .integer(0)), fingerprint: 5, for: full.lowerBound + 5)
        #expect(map.fingerprint(of: full.lowerBound + 5) == 5 && map.fingerprint(of: full.upperBound - 1) == UInt64(full.upperBound - 1))
    }

    /// A result read in key order appends its rows at scattered rowids; the map takes them a
    /// batch at a time, grouped by page (by counting for dense rowids, by sorting for sparse
    /// ones), and must still give back every row's keys and fingerprint, in batches and past them.
    @Test(arguments: [false, true]) func rowsAppendedAtScatteredRowIDsPastABatchAreAllFound(sparse: Bool) {
        var random = SeededGenerator()
        let count = KeyMap.appendBatch * 2 + 100
        let rowIDs = (0..<Int64(count)).map { sparse ? $0 * 1_000_003 - 7_000_000 : $0 * 2 + 1 }.shuffled(using: &random)
        var map = KeyMap(keyCount: 2)
        for rowID in rowIDs {
            map.append(SortKeys([.integer(rowID), .text("t\(rowID)")]), fingerprint: UInt64(bitPattern: rowID &* 31), for: rowID)
        }
        map.finishAppending()
        #expect(map.count == count)
        var mismatches = 0
        for rowID in rowIDs {
            let found =
                map[rowID] == SortKeys([.integer(rowID), .text("t\(rowID)")])
                && map.fingerprint(of: rowID) == UInt64(bitPattern: rowID &* 31) && !map.contains(rowID + 1)
            if !found { mismatches += 1 }
        }
        #expect(mismatches == 0, "seed \(random.seed)")
    }

    /// Pages made by a full batch (more follow) keep their rows' offsets out of their own
    /// arrays while rows are appended (an array each, freed when appending ends between
    /// arrays that live on, was 2 MiB left in malloc's arenas at a million rows), and a full
    /// page lists none once sorted.
    @Test func pagesMadeByAFullBatchHoldNoOffsetsOfTheirOwn() {
        var random = SeededGenerator()
        let rowIDs = Array(0..<Int64(KeyMap.appendBatch + 100)).shuffled(using: &random)
        var map = KeyMap(keyCount: 1)
        // Of a page's buffers (its fingerprints and keys, 8 bytes a row), only a page's own
        // offsets (2 bytes a row) would take 2 to 8 KiB.
        func offsetsBuffers() -> Int {
            var count = 0
            map.forEachBuffer { _, bytes in if (2 * Int(KeyPage.width)..<8 * Int(KeyPage.width)).contains(bytes) { count += 1 } }
            return count
        }
        for rowID in rowIDs.prefix(KeyMap.appendBatch) {
            map.append(SortKeys(single: .integer(-rowID)), fingerprint: UInt64(rowID), for: rowID)
        }
        #expect(offsetsBuffers() == 0, "while appending")
        for rowID in rowIDs.dropFirst(KeyMap.appendBatch) {
            map.append(SortKeys(single: .integer(-rowID)), fingerprint: UInt64(rowID), for: rowID)
        }
        map.finishAppending()
        #expect(offsetsBuffers() == 0, "sorted")
        #expect(
            rowIDs.allSatisfy { map[$0] == SortKeys(single: .integer(-$0)) && map.fingerprint(of: $0) == UInt64($0) }, "seed \(random.seed)"
        )
    }

    /// Rows at rowids far apart (random integer keys), a page each, get no room for a whole
    /// page while the index is read: that was 20 KB a row.
    @Test func scatteredRowsReserveNoWholePages() {
        var random = SeededGenerator()
        let rowIDs = (0..<Int64(2 * KeyMap.appendBatch + 100)).map { $0 << 12 }.shuffled(using: &random)
        var map = KeyMap(keyCount: 1)
        for rowID in rowIDs { map.append(SortKeys(single: .integer(rowID)), fingerprint: UInt64(rowID), for: rowID) }
        var bytes = 0
        map.forEachBuffer { _, size in bytes += size }
        #expect(bytes / rowIDs.count < 1_024, "\(bytes / rowIDs.count) bytes a row while appending")
        map.finishAppending()
        #expect(rowIDs.allSatisfy { map.fingerprint(of: $0) == UInt64($0) }, "seed \(random.seed)")
    }

    /// The rows of pages made by a full batch come back whatever the page's shape once sorted:
    /// full (reordered in place), half full, nearly empty, with rows that came in the last
    /// batch, with keys of several kinds in one page (the kinds, tails and bytes of a column).
    @Test func pagesMadeByAFullBatchGiveBackEveryRow() {
        var random = SeededGenerator()
        let width = KeyPage.width
        let full = Array(0..<(20 * width))
        let partial = (1024 * width..<1025 * width).filter { $0 % 2 == 0 } + [1025 * width + 3, 1025 * width + 9, 1025 * width + 700]
        // The first batch makes every page; the last brings the rest of the full pages' rows.
        let firstBatch = (partial + full.prefix(KeyMap.appendBatch - partial.count)).shuffled(using: &random)
        let lastBatch = full.dropFirst(KeyMap.appendBatch - partial.count).shuffled(using: &random)
        func keys(_ rowID: Int64) -> SortKeys { SortKeys([Self.values[Int(rowID % 17)], .integer(rowID)]) }
        var map = KeyMap(keyCount: 2)
        for rowID in firstBatch + lastBatch { map.append(keys(rowID), fingerprint: UInt64(rowID) &* 31, for: rowID) }
        map.finishAppending()
        var mismatches: [Int64] = []
        for rowID in firstBatch + lastBatch
        where map[rowID].map(Self.exact) != Self.exact(keys(rowID)) || map.fingerprint(of: rowID) != UInt64(rowID) &* 31 {
            mismatches.append(rowID)
        }
        #expect(mismatches.isEmpty, "seed \(random.seed): \(mismatches.prefix(10))")
        #expect(map.count == full.count + partial.count)
        #expect(!map.contains(1024 * width + 1) && !map.contains(1025 * width + 4) && !map.contains(20 * width))
    }

    /// Keys as text with byte-exact texts (Swift's `==` would equate NFC and NFD).
    private static func exact(_ keys: SortKeys) -> [String] {
        (0..<2).map { index in
            if case .text(let text) = keys[index] { return "text \(Array(text.utf8))" }
            return "\(keys[index])"
        }
    }
}
