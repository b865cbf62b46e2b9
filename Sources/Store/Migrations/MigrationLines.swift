/// The lines of a migration's normalized text that shape it: its first line (a possible
/// `-- store:` directive) and its `-- down` lines, found in one pass over the bytes.
struct MigrationLines {
    /// A `-- down` line: its 1-based number, where it starts and where the next line starts.
    struct Marker {
        let number: Int
        let start: String.Index
        let end: String.Index
    }

    /// The first line, without its line ending; `nil` for an empty text.
    let first: Substring?
    /// The `-- down` lines (any case, any surrounding whitespace), in order.
    let downMarkers: [Marker]

    private static let marker = Array(Migration.downMarker.utf8)

    /// `text` must use LF line endings (`MigrationText.normalized`).
    init(_ text: String) {
        var markers: [(number: Int, start: Int, end: Int)] = []
        var firstLineEnd = 0
        var copy = text
        copy.withUTF8 { bytes in
            var number = 1
            var start = 0
            while start <= bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                if number == 1 { firstLineEnd = end }
                if Self.isMarker(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                    markers.append((number, start, min(end + 1, bytes.count)))
                }
                number += 1
                start = end + 1
            }
        }
        let utf8 = text.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        first = text.isEmpty ? nil : text[..<index(firstLineEnd)]
        downMarkers = markers.map { Marker(number: $0.number, start: index($0.start), end: index($0.end)) }
    }

    /// Whether `line`, without surrounding spaces and tabs, is `-- down` in any case.
    private static func isMarker(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0B || $0 == 0x0C }
        guard let first = line.firstIndex(where: { !isBlank($0) }), let last = line.lastIndex(where: { !isBlank($0) }) else { return false }
        let word = line[first...last]
        return word.count == marker.count && zip(word, marker).allSatisfy { $0 | 0x20 == $1 }
    }
}
