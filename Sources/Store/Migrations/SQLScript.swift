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

        /// The first `count` words of the statement, uppercased (`["PRAGMA", "FOREIGN_KEYS"]`).
        func leadingWords(_ count: Int) -> [String] {
            var words: [String] = []
            var word = ""
            for character in sql {
                if character.isLetter || character.isNumber || character == "_" {
                    word.append(character)
                    continue
                }
                if !word.isEmpty { words.append(word.uppercased()) }
                word = ""
                if words.count == count { return words }
            }
            if !word.isEmpty && words.count < count { words.append(word.uppercased()) }
            return words
        }
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
        forEachStatement { _ in isEmpty = false }
        return isEmpty
    }

    /// Calls `body` with each statement, in order, made as it comes.
    func forEachStatement(_ body: (Statement) throws -> Void) rethrows {
        var text = text
        try text.withUTF8 { bytes in
            var line = firstLine
            var counted = 0
            func lineAt(_ offset: Int) -> Int {
                line += bytes[counted..<offset].lazy.filter { $0 == UInt8(ascii: "\n") }.count
                counted = offset
                return line
            }
            try StatementBoundaries(bytes).forEach { boundary in
                let start = lineAt(boundary.tokenStart)
                let sql = String(decoding: UnsafeBufferPointer(rebasing: bytes[boundary.tokenStart..<boundary.end]), as: UTF8.self)
                try body(Statement(sql: sql.trimmingTrailingWhitespace(), line: start))
            }
        }
    }
}

private extension String {
    func trimmingTrailingWhitespace() -> String {
        guard let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[...last])
    }
}
