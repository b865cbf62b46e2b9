import Foundation
import SQLiteStoreCore
import SQLiteStoreResults

/// The lines of `store watch --json`, one JSON object each.
///
/// `initial` lists the sections and their rowids. Each `change` holds the coordinates of
/// a ChangeSet: `sectionDeletes`, `deletes`, `updates` and move sources in the old
/// results; `sectionInserts`, `inserts` and move destinations in the new ones. Inserted
/// sections start empty: every row of an inserted section is listed in `inserts`, so a
/// consumer that removes deleted sections and rows, then inserts sections and rows in
/// ascending order, gets the new results.
enum WatchJSONLine {
    /// `{"type":"initial","sections":[{"name":S,"ids":[rowid,…]},…]}`.
    static func initial(_ snapshot: SectionedSnapshot<Int64>) -> String {
        let sections = snapshot.sections.map { section in
            "{\"name\":\(string(section.name)),\"ids\":[\(section.ids.map(String.init).joined(separator: ","))]}"
        }
        return "{\"type\":\"initial\",\"sections\":[\(sections.joined(separator: ","))]}"
    }

    /// `{"type":"change","sectionDeletes":…,"sectionInserts":…,"deletes":…,"inserts":…,"moves":…,"updates":…}`.
    static func change(_ changeSet: ChangeSet, new snapshot: SectionedSnapshot<Int64>) -> String {
        let sectionInserts = changeSet.sectionInserts.map { index in
            "{\"at\":\(index),\"name\":\(string(snapshot.sections[index].name))}"
        }
        let inserts = insertedRows(changeSet, new: snapshot).map { path, id in
            "{\"at\":\(pair(path)),\"id\":\(id)}"
        }
        let moves = changeSet.moves.map { "{\"from\":\(pair($0.from)),\"to\":\(pair($0.to))}" }
        let fields = [
            "\"type\":\"change\"",
            "\"sectionDeletes\":" + list(changeSet.sectionDeletes.map(String.init)),
            "\"sectionInserts\":" + list(sectionInserts),
            "\"deletes\":" + list(changeSet.deletes.map(pair)),
            "\"inserts\":" + list(inserts),
            "\"moves\":" + list(moves),
            "\"updates\":" + list(changeSet.updates.map(pair)),
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The change set's inserts and every row of its inserted sections, in ascending new index paths.
    static func insertedRows(_ changeSet: ChangeSet, new snapshot: SectionedSnapshot<Int64>) -> [(IndexPath, Int64)] {
        let ofInsertedSections = changeSet.sectionInserts.flatMap { section in
            snapshot.sections[section].ids.enumerated().map { (IndexPath(row: $0.offset, section: section), $0.element) }
        }
        let listed = changeSet.inserts.compactMap { path in snapshot.id(at: path).map { (path, $0) } }
        return (ofInsertedSections + listed).sorted { $0.0 < $1.0 }
    }

    private static func pair(_ path: IndexPath) -> String { "[\(path.section),\(path.row)]" }

    private static func list(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// A JSON string literal, or `null`.
    fileprivate static func string(_ text: String?) -> String {
        text.map { "\"" + EscapedText.escaping($0, quotes: true) + "\"" } ?? "null"
    }
}

extension WatchJSONLine {
    /// `{"type":"error","exitCode":N,"kind":K,"message":M}`: why watching could not start.
    static func error(_ failure: CommandFailure) -> String {
        "{\"type\":\"error\",\"exitCode\":\(failure.status.rawValue),\"kind\":\(string(failure.report.kind)),\"message\":\(string(failure.report.message))}"
    }
}
