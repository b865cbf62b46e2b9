/// One section of a migration file as SQL text, and its statements, each with the line it
/// starts on, so that errors and dry runs can point into the file the text came from.
///
/// Statements end where SQLite's own tokenizer (`sqlite3_complete`) says they do, so
/// semicolons inside strings, comments and trigger bodies do not split them. They are found
/// in one pass (`StatementBoundaries`) and made one at a time, so that running a large file
/// never holds all its statements at once.
struct SQLScript: Sendable, Hashable {
    /// One statement of a script.
    struct Statement: Sendable, Hashable {
        /// The statement's text, from its first keyword to its semicolon.
        let sql: String
        /// The line its first keyword is on, counted in the file (1-based).
        let line: Int
    }

    /// The section's text.
    let text: Substring
    /// The line of the file the text's first line is (1-based).
    let firstLine: Int

    init(text: Substring, firstLine: Int) {
        self.text = text
        self.firstLine = firstLine
    }

    /// The statements, in order; comments and empty statements are left out.
    var statements: [Statement] {
        var statements: [Statement] = []
        forEachStatement { statements.append($0) }
        return statements
    }

    /// Whether the script holds no statement at all.
    var isEmpty: Bool {
        var isEmpty = true
        forEachBoundary { _, _ in isEmpty = false }
        return isEmpty
    }

    /// Calls `body` with each statement, in order, made as it comes.
    func forEachStatement(_ body: (Statement) throws -> Void) rethrows {
        try forEachBoundary { bytes, line in
            let sql = String(decoding: bytes, as: UTF8.self).trimmingTrailingWhitespace()
            try body(Statement(sql: sql, line: line))
        }
    }

    /// Calls `body` with the first `count` words (uppercased, as `["PRAGMA", "FOREIGN_KEYS"]`)
    /// and the line of each statement, in order, without making the statement's text.
    func forEachStatementOpening(words count: Int, _ body: ([String], Int) throws -> Void) rethrows {
        try forEachBoundary { bytes, line in try body(Self.words(count, in: bytes), line) }
    }

    /// Calls `body` with the bytes of each statement, from its first token to its end, and its line.
    private func forEachBoundary(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) rethrows {
        var text = text
        try text.withUTF8 { bytes in
            var line = firstLine
            var counted = 0
            try StatementBoundaries(bytes).forEach { boundary in
                line += bytes[counted..<boundary.tokenStart].lazy.filter { $0 == UInt8(ascii: "\n") }.count
                counted = boundary.tokenStart
                try body(UnsafeBufferPointer(rebasing: bytes[boundary.tokenStart..<boundary.end]), line)
            }
        }
    }

    /// The first `count` runs of letters, digits, `_` and non-ASCII bytes, uppercased.
    private static func words(_ count: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        func isWordByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), 0x80...0xFF:
                true
            default: false
            }
        }
        var words: [String] = []
        var index = bytes.startIndex
        while words.count < count {
            guard let start = bytes[index...].firstIndex(where: isWordByte) else { break }
            let end = bytes[start...].firstIndex { !isWordByte($0) } ?? bytes.endIndex
            words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).uppercased())
            index = end
        }
        return words
    }
}

extension String {
    fileprivate func trimmingTrailingWhitespace() -> String {
        guard let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[...last])
    }
}
