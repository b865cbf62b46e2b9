import Foundation
import SQLiteStoreCore

/// The text display of a watched query: a table of its rows, grouped by section, with
/// marks on the rows the last change touched, and a status line.
struct WatchTextFrame {
    /// How a row changed in the last update.
    enum Mark: String {
        case inserted = "+"
        case moved = ">"
        case updated = "*"
        case movedAndUpdated = "#"
    }

    let title: String
    let columns: [String]
    /// Whether rows are grouped in sections (`--section-by`): each gets a heading.
    let isSectioned: Bool
    let results: WatchResults
    let update: WatchUpdate?
    /// The terminal's size; `nil` height shows every row.
    let width: Int
    let height: Int?

    /// The frame's lines.
    var lines: [String] {
        let marks = update.map(Self.marks) ?? [:]
        let header = ["", "rowid"] + columns
        var table: [[String]?] = [header]  // nil: a section heading goes here
        var headings: [String] = []
        for section in results.snapshot.sections {
            if isSectioned {
                headings.append("── \(section.name ?? "NULL") (\(section.ids.count)) ")
                table.append(nil)
            }
            for id in section.ids {
                table.append([marks[id]?.rawValue ?? " ", String(id)] + (results.values[id] ?? []).map { $0.displayText.singleLine })
            }
        }
        let widths = Self.fit(widths(of: table.compactMap { $0 }), into: width)
        var headingIterator = headings.makeIterator()
        var body = table.map { cells in
            guard let cells else { return (headingIterator.next() ?? "").padding(toLength: width, withPad: "─", startingAt: 0) }
            return Self.line(cells, widths: widths)
        }
        if let height, body.count + 3 > height {
            let shown = max(1, height - 4)
            body = Array(body.prefix(shown)) + ["… \(body.count - shown) more lines"]
        }
        return [title.truncated(to: width)] + body + [status.truncated(to: width)]
    }

    /// `3 rows · 2 sections · last change 12:00:01.234 (external) · +1 >0 *1 -0`.
    private var status: String {
        let sections = results.snapshot.sections.count
        var parts = ["\(results.rowCount) row\(results.rowCount == 1 ? "" : "s")", "\(sections) section\(sections == 1 ? "" : "s")"]
        guard let update else { return (parts + ["waiting for changes"]).joined(separator: " · ") }
        parts.append("last change \(Self.timeText(update.time)) (external)")
        parts.append(Self.counts(of: update))
        return parts.joined(separator: " · ")
    }

    private static func counts(of update: WatchUpdate) -> String {
        let changeSet = update.changeSet
        let inserted = WatchJSONLine.insertedRows(changeSet, new: update.new.snapshot).count
        let deleted = update.old.rowCount + inserted - update.new.rowCount
        return
            "+\(inserted) inserted, -\(deleted) deleted, >\(changeSet.moves.count) moved, *\(changeSet.updates.count) updated, #\(changeSet.moves.filter(\.isChanged).count) moved and updated"
    }

    /// Each touched row's mark, by rowid.
    static func marks(of update: WatchUpdate) -> [Int64: Mark] {
        var marks: [Int64: Mark] = [:]
        for (_, id) in WatchJSONLine.insertedRows(update.changeSet, new: update.new.snapshot) { marks[id] = .inserted }
        for move in update.changeSet.moves {
            if let id = update.new.snapshot.id(at: move.to) { marks[id] = move.isChanged ? .movedAndUpdated : .moved }
        }
        for path in update.changeSet.updates {
            if let id = update.old.snapshot.id(at: path) { marks[id] = .updated }
        }
        return marks
    }

    private func widths(of rows: [[String]]) -> [Int] {
        (0..<(rows.first?.count ?? 0)).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    }

    /// Narrows the widest columns until the row, with separators, fits `width`.
    private static func fit(_ widths: [Int], into width: Int) -> [Int] {
        var widths = widths
        while widths.reduce(0, +) + 2 * (widths.count - 1) > width,
            let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 3
        {
            widths[widest] -= 1
        }
        return widths
    }

    private static func line(_ cells: [String], widths: [Int]) -> String {
        zip(cells, widths).map { cell, width in cell.truncated(to: width).padding(toLength: width, withPad: " ", startingAt: 0) }
            .joined(separator: "  ").trimmingTrailingSpaces
    }

    private static func timeText(_ time: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter.string(from: time)
    }
}

extension String {
    fileprivate func truncated(to width: Int) -> String {
        count <= width ? self : String(prefix(max(0, width - 1))) + "…"
    }

    fileprivate var singleLine: String { replacingOccurrences(of: "\n", with: "⏎") }

    fileprivate var trimmingTrailingSpaces: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
