import CSQLite
import Foundation

/// SQL text split into its statements, each with the line it starts on, so that errors
/// and dry runs can point into the file the text came from.
///
/// Statements end where SQLite's own tokenizer (`sqlite3_complete`) says they do, so
/// semicolons inside strings, comments and trigger bodies do not split them.
struct SQLScript: Sendable, Hashable {
    /// One statement of a script.
    struct Statement: Sendable, Hashable {
        /// The statement's text, from its first keyword to its semicolon.
        let sql: String
        /// The line its first keyword is on, counted in the file (1-based).
        let line: Int

        /// The first `count` words of the statement, uppercased (`["PRAGMA", "FOREIGN_KEYS"]`).
        func leadingWords(_ count: Int) -> [String] {
            sql.split { !($0.isLetter || $0.isNumber || $0 == "_") }.prefix(count).map { $0.uppercased() }
        }
    }

    /// The statements, in order; comments and empty statements are left out.
    let statements: [Statement]

    /// Splits `text`, whose first line is line `firstLine` of its file.
    init(text: String, firstLine: Int) {
        statements = Self.split(Array(text.utf8), firstLine: firstLine)
    }

    /// Whether the script holds no statement at all.
    var isEmpty: Bool { statements.isEmpty }

    private static func split(_ bytes: [UInt8], firstLine: Int) -> [Statement] {
        var statements: [Statement] = []
        var start = 0
        var line = firstLine
        func takeStatement(upTo end: Int) {
            let chunk = bytes[start..<end]
            let tokenStart = start + triviaLength(chunk)
            let body = bytes[tokenStart..<end]
            if let first = body.first, first != UInt8(ascii: ";") {
                let sql = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                statements.append(Statement(sql: sql, line: line + newlineCount(bytes[start..<tokenStart])))
            }
            line += newlineCount(chunk)
            start = end
        }
        for index in bytes.indices where bytes[index] == UInt8(ascii: ";") && isComplete(bytes[start...index]) {
            takeStatement(upTo: index + 1)
        }
        if start < bytes.count { takeStatement(upTo: bytes.count) }
        return statements
    }

    private static func isComplete(_ bytes: ArraySlice<UInt8>) -> Bool {
        String(decoding: bytes, as: UTF8.self).withCString { sqlite3_complete($0) != 0 }
    }

    private static func newlineCount(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.lazy.filter { $0 == UInt8(ascii: "\n") }.count
    }

    /// The number of bytes of whitespace and comments at the start of `bytes`.
    private static func triviaLength(_ bytes: ArraySlice<UInt8>) -> Int {
        var index = bytes.startIndex
        func next(_ offset: Int) -> UInt8? { bytes.indices.contains(index + offset) ? bytes[index + offset] : nil }
        while let byte = next(0) {
            if [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(byte) {
                index += 1
            } else if byte == UInt8(ascii: "-"), next(1) == UInt8(ascii: "-") {
                index = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            } else if byte == UInt8(ascii: "/"), next(1) == UInt8(ascii: "*") {
                index = endOfBlockComment(in: bytes, from: index + 2)
            } else {
                break
            }
        }
        return index - bytes.startIndex
    }

    /// The index just after the `*/` that closes a block comment, or the end of `bytes`.
    private static func endOfBlockComment(in bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        var index = start
        while index + 1 < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") { return index + 2 }
            index += 1
        }
        return bytes.endIndex
    }
}
