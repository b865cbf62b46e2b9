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
        let normalized = MigrationText.normalized(text)
        let lines = MigrationLines(normalized)
        let usesTransaction = try Self.usesTransaction(firstLine: lines.first, location: location)
        if lines.downMarkers.count > 1 {
            throw MigrationError.invalidMigration(
                location: location, line: lines.downMarkers[1].number,
                reason: "a second \(Self.downMarker) line; a file has one up and one down section")
        }
        let marker = lines.downMarkers.first
        let up = SQLScript(text: normalized[..<(marker?.start ?? normalized.endIndex)], firstLine: 1)
        let down = marker.map { SQLScript(text: normalized[$0.end...], firstLine: $0.number + 1) }
        let scripts = [up, down].compactMap { $0 }
        let warnings = usesTransaction ? try Self.checkStatements(in: scripts, location: location) : []
        self.init(
            version: version, name: name, path: path, checksum: MigrationText.checksum(ofNormalized: normalized),
            usesTransaction: usesTransaction, warnings: warnings,
            up: .sql(up), down: down.flatMap { $0.isEmpty ? nil : .sql($0) })
    }

    private static func usesTransaction(firstLine: Substring?, location: String) throws -> Bool {
        let line = firstLine?.trimmingWhitespace() ?? ""
        // Lowercase only a directive: the first line may be the whole file.
        guard line.prefix(9).lowercased() == "-- store:" else { return true }
        let directive = line.lowercased()
        guard directive == noTransactionDirective else {
            throw MigrationError.invalidMigration(
                location: location, line: 1,
                reason: "unknown directive \"\(directive)\"; the only one is \(noTransactionDirective)")
        }
        return false
    }

    /// Refuses `BEGIN`, `COMMIT`, `END` and `ROLLBACK` (but not `ROLLBACK TO`), which would end
    /// the transaction the migrator wraps around the file and its ledger row, and returns the
    /// warnings about the other statements, in one pass.
    private static func checkStatements(in scripts: [SQLScript], location: String) throws -> [MigrationWarning] {
        var warnings: [MigrationWarning] = []
        for script in scripts {
            try script.forEachStatementOpening(words: 3) { words, line in
                let endsTransaction =
                    ["BEGIN", "COMMIT", "END"].contains(words.first)
                    || (words.first == "ROLLBACK" && !words.contains("TO"))
                if endsTransaction {
                    throw MigrationError.invalidMigration(
                        location: location, line: line,
                        reason: "\(words.first ?? "") would end the transaction the migrator runs this file in; remove it, "
                            + "or make the first line \(noTransactionDirective)")
                }
                if let warning = warning(about: words) {
                    warnings.append(MigrationWarning(line: line, message: warning))
                }
            }
        }
        return warnings
    }

    /// Why a statement whose first words are `words` does not do what it says inside a
    /// transaction, if it does not.
    private static func warning(about words: [String]) -> String? {
        switch true {
        case words.first == "VACUUM":
            "VACUUM cannot run inside a transaction; move it to a file that starts with \(noTransactionDirective)"
        case words.first == "PRAGMA" && words.contains("JOURNAL_MODE"):
            "PRAGMA journal_mode cannot change inside a transaction; move it to a file that starts with \(noTransactionDirective)"
        case words.first == "PRAGMA" && words.contains("FOREIGN_KEYS"):
            "PRAGMA foreign_keys does nothing inside a transaction; the migrator already turns foreign keys off "
                + "around each migration and runs PRAGMA foreign_key_check before committing"
        default: nil
        }
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
