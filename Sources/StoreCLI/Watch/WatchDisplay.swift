import Foundation

/// Where `store watch` shows the results and each change: JSON lines or a text table.
protocol WatchDisplay {
    /// Shows the first results (`update` is `nil`) or the results after an update.
    func show(_ results: WatchResults, after update: WatchUpdate?) throws
}

/// Writes `text` to standard output at once, unbuffered.
func writeToStandardOutput(_ text: String) throws {
    try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
}

/// `--json`: one line per event, flushed at once.
struct WatchJSONDisplay: WatchDisplay {
    func show(_ results: WatchResults, after update: WatchUpdate?) throws {
        let line = update.map { WatchJSONLine.change($0.changeSet, new: results.snapshot) } ?? WatchJSONLine.initial(results.snapshot)
        try writeToStandardOutput(line + "\n")
    }
}

/// Text: the whole table, redrawn after each change (the screen is cleared first on a terminal).
struct WatchTextDisplay: WatchDisplay {
    let query: WatchQuery

    func show(_ results: WatchResults, after update: WatchUpdate?) throws {
        let terminal = TerminalSize.standardOutput
        let frame = WatchTextFrame(
            title: title, columns: query.columns, isSectioned: query.sectionColumn != nil,
            results: results, update: update, width: terminal.width, height: terminal.height)
        let clear = terminal.isTerminal ? "\u{1B}[H\u{1B}[2J" : ""
        try writeToStandardOutput(clear + frame.lines.joined(separator: "\n") + "\n" + (terminal.isTerminal ? "" : "\n"))
    }

    private var title: String {
        var parts = ["watching \(query.table)"]
        if let condition = query.condition { parts.append("where \(condition)") }
        if !query.sortKeys.isEmpty {
            parts.append("order by " + query.sortKeys.map { "\($0.column)" + ($0.isAscending ? "" : " desc") }.joined(separator: ", "))
        }
        if let section = query.sectionColumn { parts.append("sections by \(section)") }
        return parts.joined(separator: " · ")
    }
}
