import TodoKit

/// The item list as the terminal prints it: each list's name, then its items, numbered from 1
/// across the sections, as the row commands take them.
enum TerminalOutline {
    static func lines(of sections: [TodoSection]) -> [String] {
        guard !sections.isEmpty else { return ["(no items: add one with  add LIST TITLE)"] }
        var number = 0
        return sections.flatMap { section in
            ["[\(section.name)]"]
                + section.items.map { item in
                    number += 1
                    let notes = item.notes.isEmpty ? "" : "  (\(item.notes))"
                    return "  \(number). [\(item.done ? "x" : " ")] \(item.title)\(notes)"
                }
        }
    }
}
