import Foundation
import SQLiteStoreSyncProtocol
import Testing

/// `hasSameUTF8(as:)` and `utf8Precedes(_:)` compare bytes in place: they must agree with the
/// bytes compared one by one for every pair, canonically equivalent spellings and shared
/// prefixes included.
@Suite("UTF-8 byte comparisons")
struct UTF8BytesTests {
    /// Pieces whose concatenations share prefixes, differ only in normalization (`"é"` and
    /// `"e\u{301}"`; two combining marks in either order, the same length), hold NUL, bytes above
    /// 0x7F and four-byte characters, or are empty.
    private static let pieces = [
        "", "a", "b", "e", "é", "e\u{301}", "\u{301}\u{323}", "\u{323}\u{301}", "\u{0}", "\u{7F}", "ÿ", "😀", "\u{FEFF}", "notes", "A",
    ]

    private static func randomString(using generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
    }

    @Test("Equality and order agree with the bytes compared one by one")
    func agreeWithBytes() {
        var generator = SeededGenerator()
        let seed = generator.seed
        for _ in 0..<20_000 {
            let a = Self.randomString(using: &generator)
            // Half the pairs start alike: the same string, or one that extends it.
            let b = Bool.random(using: &generator) ? a + Self.randomString(using: &generator) : Self.randomString(using: &generator)
            for (x, y) in [(a, b), (b, a)] {
                #expect(
                    x.hasSameUTF8(as: y) == Array(x.utf8).elementsEqual(Array(y.utf8)),
                    "seed \(seed): \(x.debugDescription) \(y.debugDescription)")
                #expect(
                    x.utf8Precedes(y) == Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)),
                    "seed \(seed): \(x.debugDescription) \(y.debugDescription)")
            }
        }
    }

    @Test("Canonically equivalent spellings are two, in byte order, of the same length or not")
    func canonicalEquivalents() {
        let (marksInOrder, marksSwapped) = ("a\u{323}\u{301}", "a\u{301}\u{323}")
        #expect(marksInOrder == marksSwapped && marksInOrder.utf8.count == marksSwapped.utf8.count)
        #expect(!marksInOrder.hasSameUTF8(as: marksSwapped))
        #expect(marksSwapped.utf8Precedes(marksInOrder))
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        #expect(!composed.hasSameUTF8(as: decomposed))
        #expect(decomposed.utf8Precedes(composed))
        #expect(!composed.utf8Precedes(decomposed))
        #expect(composed.hasSameUTF8(as: String(decoding: Array(composed.utf8), as: UTF8.self)))
    }
}
