import Foundation
import SQLiteStoreCore
import SQLiteStoreResults

/// The mark of each row a change set touched, by rowid, as the demo's list shows them.
enum DemoChangeMarks {
    static let legend = "marks: + inserted, > moved, * updated, # moved and updated"

    /// Marks for the rows `changeSet` inserted, moved or updated on its way from `old` to `new`.
    static func of(_ changeSet: ChangeSet, old: FetchedResultsSnapshot, new: FetchedResultsSnapshot) -> [Int64: String] {
        var marks: [Int64: String] = [:]
        let sections = new.sections
        let insertedSectionRows = changeSet.sectionInserts.flatMap { section in
            (0..<sections[section].numberOfObjects).map { IndexPath(row: $0, section: section) }
        }
        for path in changeSet.inserts + insertedSectionRows {
            if let id = new.objectID(at: path) { marks[id.rowID] = "+" }
        }
        for move in changeSet.moves {
            if let id = new.objectID(at: move.to) { marks[id.rowID] = move.isChanged ? "#" : ">" }
        }
        for path in changeSet.updates {
            if let id = old.objectID(at: path) { marks[id.rowID] = "*" }
        }
        return marks
    }
}
