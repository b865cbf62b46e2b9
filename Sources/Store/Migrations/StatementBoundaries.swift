/// Where the statements of SQL text end, found in one pass with the state machine of
/// SQLite's `sqlite3_complete` (complete.c): a `;` ends a statement unless it is inside a
/// string, a quoted name, a comment, or the body of a `CREATE TRIGGER … BEGIN … END`.
///
/// Calling `sqlite3_complete` on ever longer prefixes would find the same ends, in time
/// quadratic in the length of a statement (or of the rest of the file, after an unclosed
/// quote); this is linear.
struct StatementBoundaries {
    /// One statement: where its first token starts and where it ends (after its `;`, or at
    /// the end of the text). Whitespace and comments before the first token are not part of it.
    struct Statement {
        let tokenStart: Int
        let end: Int
    }

    private let bytes: UnsafeBufferPointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Calls `body` with each statement that has a token other than `;`, in order.
    func forEach(_ body: (Statement) throws -> Void) rethrows {
        var state = State.start
        var firstToken: Int?
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let (token, next) = self.token(at: index)
            if token != .whitespace && token != .semicolon && firstToken == nil { firstToken = index }
            state = state.after(token)
            index = next
            if token == .semicolon && state == .start {
                if let start = firstToken { try body(Statement(tokenStart: start, end: next)) }
                firstToken = nil
            }
        }
        if let start = firstToken { try body(Statement(tokenStart: start, end: bytes.endIndex)) }
    }

    /// The token at `index` and the index after it; an unclosed quote or block comment runs
    /// to the end of the text.
    private func token(at index: Int) -> (Token, Int) {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: ";"):
            return (.semicolon, index + 1)
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
            return (.whitespace, index + 1)
        case UInt8(ascii: "/") where next(index) == UInt8(ascii: "*"):
            var end = index + 2
            while end + 1 < bytes.endIndex && !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
            return (.whitespace, min(end + 2, bytes.endIndex))
        case UInt8(ascii: "-") where next(index) == UInt8(ascii: "-"):
            return (.whitespace, endOfRun(from: index + 2, closedBy: UInt8(ascii: "\n")))
        case UInt8(ascii: "["):
            return (.other, endOfRun(from: index + 1, closedBy: UInt8(ascii: "]")))
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
            return (.other, endOfRun(from: index + 1, closedBy: byte))
        case _ where Self.isIdentifierByte(byte):
            var end = index + 1
            while end < bytes.endIndex && Self.isIdentifierByte(bytes[end]) { end += 1 }
            return (Token(keyword: bytes[index..<end]), end)
        default:
            return (.other, index + 1)
        }
    }

    private func next(_ index: Int) -> UInt8? {
        index + 1 < bytes.endIndex ? bytes[index + 1] : nil
    }

    /// The index after the first `closer` at or after `start`, or the end of the text.
    private func endOfRun(from start: Int, closedBy closer: UInt8) -> Int {
        var end = start
        while end < bytes.endIndex && bytes[end] != closer { end += 1 }
        return min(end + 1, bytes.endIndex)
    }

    /// Letters, digits, `_`, `$` and every byte of a multi-byte UTF-8 character, as SQLite's `IdChar`.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...0xFF:
            true
        default: false
        }
    }
}

/// The token classes of `sqlite3_complete`.
private enum Token: Int {
    case semicolon, whitespace, other, explain, create, temp, trigger, end

    private static let keywords: [(word: [UInt8], token: Token)] = [
        (Array("explain".utf8), Token.explain), (Array("create".utf8), Token.create), (Array("temp".utf8), Token.temp),
        (Array("temporary".utf8), Token.temp), (Array("trigger".utf8), Token.trigger), (Array("end".utf8), Token.end),
    ]

    /// The keyword's token, compared without allocating (identifiers are most of a script).
    init<Word: Collection<UInt8>>(keyword word: Word) {
        let match = Self.keywords.first { keyword in
            keyword.word.count == word.count && zip(keyword.word, word).allSatisfy { $0 == $1 | 0x20 }
        }
        self = match?.token ?? .other
    }
}

/// The states of `sqlite3_complete`; `start` after a `;` means a statement ended.
private enum State: Int {
    case invalid, start, normal, explain, create, trigger, semicolon, end

    /// `sqlite3_complete`'s transition table, a row per state, a column per token.
    private static let transitions: [[State]] = [
        [.start, .invalid, .normal, .explain, .create, .normal, .normal, .normal],
        [.start, .start, .normal, .explain, .create, .normal, .normal, .normal],
        [.start, .normal, .normal, .normal, .normal, .normal, .normal, .normal],
        [.start, .explain, .explain, .normal, .create, .normal, .normal, .normal],
        [.start, .create, .normal, .normal, .normal, .create, .trigger, .normal],
        [.semicolon, .trigger, .trigger, .trigger, .trigger, .trigger, .trigger, .trigger],
        [.semicolon, .semicolon, .trigger, .trigger, .trigger, .trigger, .trigger, .end],
        [.start, .end, .trigger, .trigger, .trigger, .trigger, .trigger, .trigger],
    ]

    func after(_ token: Token) -> State {
        Self.transitions[rawValue][token.rawValue]
    }
}
