import Foundation
import SQLiteStoreResults

/// A list view without a screen: it keeps the rows it shows, section by section, applies
/// each change set of its data source the way a UIKit table view would, and records what
/// happened. The tests and the `store` command use it.
///
/// Moved and untouched rows keep the item the view already had; inserted rows, and rows
/// marked updated or changed, are read from the data source. A change set that does not fit
/// what the view shows is recorded in ``errors`` and answered by a reload, where UIKit
/// would raise an exception.
@MainActor
public final class InMemoryListView<Item>: ListViewUpdating {
    /// The rows shown, section by section.
    public private(set) var sections: [[Item]] = []
    /// The section headers shown.
    public private(set) var headers: [SectionHeader?] = []
    /// Every change set applied, in order.
    public private(set) var appliedChangeSets: [ChangeSet] = []
    /// How many times the view reloaded everything.
    public private(set) var reloadCount = 0
    /// The change sets that did not fit, with why.
    public private(set) var errors: [ChangeSetError] = []

    private var dataSource: (any DataSource<Item>)?
    private var subscription: ChangeSetSubscription?

    /// Shows `dataSource` and follows its changes.
    ///
    /// The view holds its data source, so `InMemoryListView(dataSource: FetchedDataSource(…))`
    /// keeps updating (a UIKit view holds its data source weakly, and its view controller
    /// holds it); ``detach()`` lets it go. The data source holds only a weak subscription to
    /// the view, so there is no cycle.
    public init(dataSource: some DataSource<Item>) {
        self.dataSource = dataSource
        subscription = show(changesOf: dataSource)
    }

    /// Stops following the data source and lets it go; the rows shown stay as they are.
    public func detach() {
        subscription?.cancel()
        subscription = nil
        dataSource = nil
    }

    public func reloadData() {
        reloadCount += 1
        sections = dataSource?.allItems ?? []
        headers = dataSource.map { source in (0..<source.numberOfSections).map(source.header(forSection:)) } ?? []
    }

    public func performBatchUpdates(_ changeSet: ChangeSet) {
        guard let dataSource else { return }
        do {
            sections = try Self.applying(changeSet, to: sections, from: dataSource)
            headers = (0..<dataSource.numberOfSections).map(dataSource.header(forSection:))
            appliedChangeSets.append(changeSet)
        } catch {
            errors.append(error)
            reloadData()
        }
    }

    /// The rows shown, described one line per row under a line per section, for terminals and tests.
    public func lines(describing describe: (Item) -> String) -> [String] {
        sections.enumerated().flatMap { index, rows in
            let title = headers.indices.contains(index) ? headers[index]?.title : nil
            return ["[\(title ?? "section \(index)")]"] + rows.map { "  " + describe($0) }
        }
    }

    /// Applies `changeSet` to `old` by its row positions: old rows are numbered `0..<n`,
    /// rows taken from the data source get the numbers after, and the change set's own
    /// `applied(to:insertedSection:insertedRow:)` arranges the numbers.
    private static func applying(
        _ changeSet: ChangeSet, to old: [[Item]], from dataSource: any DataSource<Item>
    ) throws(ChangeSetError) -> [[Item]] {
        try checkNewSide(of: changeSet, against: dataSource)
        var pool = old.flatMap { $0 }
        var numbered: [SectionedSnapshot<Int>.Section] = []
        var next = 0
        for rows in old {
            numbered.append(.init(ids: Array(next..<next + rows.count)))
            next += rows.count
        }
        func take(_ indexPath: IndexPath) -> Int {
            pool.append(dataSource.item(at: indexPath))
            return pool.count - 1
        }
        let arranged = try changeSet.applied(
            to: SectionedSnapshot(sections: numbered),
            insertedSection: { section in
                .init(ids: (0..<dataSource.numberOfRows(inSection: section)).map { take(IndexPath(row: $0, section: section)) })
            },
            insertedRow: take
        )
        try checkShape(of: arranged, against: dataSource)
        var sections = arranged.sections.map { $0.ids.map { pool[$0] } }
        for indexPath in changedRows(of: changeSet, arranged: arranged, oldNumbers: numbered) {
            sections[indexPath.section][indexPath.row] = dataSource.item(at: indexPath)
        }
        return sections
    }

    /// Throws unless every new-side position of `changeSet` exists in the data source,
    /// so that reading the inserted rows cannot go out of bounds.
    private static func checkNewSide(of changeSet: ChangeSet, against dataSource: any DataSource<Item>) throws(ChangeSetError) {
        let rowCounts = dataSource.rowCounts
        if let section = changeSet.sectionInserts.first(where: { $0 >= rowCounts.count }) {
            throw .invalidSection(section, .sectionInsert)
        }
        func exists(_ path: IndexPath) -> Bool { path.section < rowCounts.count && path.row < rowCounts[path.section] }
        if let path = changeSet.inserts.first(where: { !exists($0) }) { throw .invalidIndexPath(path, .insert) }
        if let move = changeSet.moves.first(where: { !exists($0.to) }) { throw .invalidIndexPath(move.to, .moveDestination) }
    }

    /// Throws unless `arranged` has the data source's sections and row counts.
    private static func checkShape(of arranged: SectionedSnapshot<Int>, against dataSource: any DataSource<Item>) throws(ChangeSetError) {
        let rowCounts = dataSource.rowCounts
        guard arranged.sections.count == rowCounts.count else {
            throw .countMismatch(section: nil, expected: arranged.sections.count, actual: rowCounts.count)
        }
        for (section, rows) in arranged.sections.enumerated() where rows.ids.count != rowCounts[section] {
            throw .countMismatch(section: section, expected: rows.ids.count, actual: rowCounts[section])
        }
    }

    /// The new index paths of rows updated in place and of moved rows marked changed.
    private static func changedRows(
        of changeSet: ChangeSet, arranged: SectionedSnapshot<Int>, oldNumbers: [SectionedSnapshot<Int>.Section]
    ) -> [IndexPath] {
        let updated = Set(changeSet.updates.map { oldNumbers[$0.section].ids[$0.row] })
        var paths = changeSet.moves.filter(\.isChanged).map(\.to)
        guard !updated.isEmpty else { return paths }
        for (section, rows) in arranged.sections.enumerated() {
            for (row, id) in rows.ids.enumerated() where updated.contains(id) {
                paths.append(IndexPath(row: row, section: section))
            }
        }
        return paths
    }
}
