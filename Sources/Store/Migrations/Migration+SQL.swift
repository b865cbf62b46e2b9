extension Migration {
    /// The first-line directive that makes a file run outside a transaction.
    static let noTransactionDirective = "-- store:no-transaction"
    /// The line that separates the up section from the down section.
    static let downMarker = "-- down"

    /// A migration from SQL text in the migration file format.
    ///
    /// Above a line `-- down` is the up SQL, below it the optional down SQL (a down section
    /// without statements counts as none). A first line `-- store:no-transaction` runs the
    /// file outside a transaction. The checksum covers the whole text, after removing a byte
    /// order mark and turning CRLF and CR line endings into LF.
    ///
    /// - Throws: `MigrationError.invalidMigration` for an unknown `-- store:` directive, a
    ///   second `-- down` line, or a statement that would end the migration's transaction.
    public init(version: Int, name: String, sql text: String, path: String? = nil) throws {
        let location = path ?? "migration \(version) \(name)"
        let lines = MigrationText.normalized(text).split(separator: "\n", omittingEmptySubsequences: false)
        let usesTransaction = try Self.usesTransaction(firstLine: lines.first, location: location)
        let markers = lines.indices.filter { Self.isDownMarker(lines[$0]) }
        if markers.count > 1 {
            throw MigrationError.invalidMigration(location: location, line: markers[1] + 1,
                                                  reason: "a second \(Self.downMarker) line; a file has one up and one down section")
        }
        let upEnd = markers.first ?? lines.endIndex
        let up = SQLScript(text: lines[..<upEnd].joined(separator: "\n"), firstLine: 1)
        let down = markers.first.map { SQLScript(text: lines[($0 + 1)...].joined(separator: "\n"), firstLine: $0 + 2) }
        if usesTransaction {
            try Self.rejectTransactionStatements(in: [up, down].compactMap { $0 }, location: location)
        }
        self.init(version: version, name: name, path: path, checksum: MigrationText.checksum(of: text),
                  usesTransaction: usesTransaction,
                  warnings: usesTransaction ? Self.warnings(in: [up, down].compactMap { $0 }) : [],
                  up: .sql(up), down: down.flatMap { $0.isEmpty ? nil : .sql($0) })
    }

    private static func isDownMarker(_ line: Substring) -> Bool {
        line.trimmingWhitespace().lowercased() == downMarker
    }

    private static func usesTransaction(firstLine: Substring?, location: String) throws -> Bool {
        let directive = firstLine?.trimmingWhitespace().lowercased() ?? ""
        guard directive.hasPrefix("-- store:") else { return true }
        guard directive == noTransactionDirective else {
            throw MigrationError.invalidMigration(location: location, line: 1,
                                                  reason: "unknown directive \"\(directive)\"; the only one is \(noTransactionDirective)")
        }
        return false
    }

    /// `BEGIN`, `COMMIT`, `END` and `ROLLBACK` (but not `ROLLBACK TO`) would end the transaction
    /// the migrator wraps around the file and its ledger row.
    private static func rejectTransactionStatements(in scripts: [SQLScript], location: String) throws {
        for statement in scripts.flatMap(\.statements) {
            let words = statement.leadingWords(3)
            let endsTransaction = ["BEGIN", "COMMIT", "END"].contains(words.first)
                || (words.first == "ROLLBACK" && !words.contains("TO"))
            if endsTransaction {
                throw MigrationError.invalidMigration(
                    location: location, line: statement.line,
                    reason: "\(words.first ?? "") would end the transaction the migrator runs this file in; remove it, "
                        + "or make the first line \(noTransactionDirective)")
            }
        }
    }

    /// Statements SQLite ignores or refuses inside a transaction.
    private static func warnings(in scripts: [SQLScript]) -> [MigrationWarning] {
        scripts.flatMap(\.statements).compactMap { statement in
            let words = statement.leadingWords(3)
            let message: String? = switch true {
            case words.first == "VACUUM":
                "VACUUM cannot run inside a transaction; move it to a file that starts with \(noTransactionDirective)"
            case words.first == "PRAGMA" && words.contains("JOURNAL_MODE"):
                "PRAGMA journal_mode cannot change inside a transaction; move it to a file that starts with \(noTransactionDirective)"
            case words.first == "PRAGMA" && words.contains("FOREIGN_KEYS"):
                "PRAGMA foreign_keys does nothing inside a transaction; the migrator already turns foreign keys off "
                    + "around each migration and runs PRAGMA foreign_key_check before committing"
            default: nil
            }
            return message.map { MigrationWarning(line: statement.line, message: $0) }
        }
    }
}

private extension Substring {
    func trimmingWhitespace() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
