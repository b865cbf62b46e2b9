import Foundation

/// The change set from a first page to the whole index it leads (read in the same
/// snapshot): the rows after the page in the page's last section are inserted, and every
/// later section is inserted with its rows, which are implied. It costs the sections after
/// the page's last one (the appended rows are held as their range), never a diff.
enum AppendedRows {
    static func changeSet(from page: ResultIndex, to whole: ResultIndex) -> ChangeSet {
        let last = page.sectionCount - 1
        guard last >= 0 else { return ChangeSet(sectionInserts: Array(0..<whole.sectionCount)) }
        let appended = rowCount(ofSection: last, in: page)..<rowCount(ofSection: last, in: whole)
        return ChangeSet(sectionInserts: Array(page.sectionCount..<whole.sectionCount), appending: appended, toSection: last)
    }

    private static func rowCount(ofSection section: Int, in index: ResultIndex) -> Int {
        index.isSectioned ? index.sectionCounts[section] : index.count
    }
}
