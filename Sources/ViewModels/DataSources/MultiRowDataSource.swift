import Foundation
import SQLiteStoreResults

/// A data source with one section whose rows are the rows of its children, one child after
/// the other (a child's sections, in order, run into each other).
///
/// A child's change set is republished in the flat coordinates of the combined section; a
/// deleted or inserted section of a child becomes the deletes or inserts of its rows.
/// Adding or removing a child publishes the insert or delete of its rows. The composite
/// holds its children; they do not hold it.
@MainActor
public final class MultiRowDataSource<Item>: DataSource {
    private let children = DataSourceChildren<Item>()
    private let sectionHeader: SectionHeader?

    /// Publishes the translated change sets of the children and the effect of adding and removing them.
    public let changes = ChangeSetPublisher()

    /// Starts with `children`, in order, under `header`.
    public init(children: [any DataSource<Item>] = [], header: SectionHeader? = nil) {
        sectionHeader = header
        for child in children {
            self.children.insert(child, at: self.children.children.count)
        }
        self.children.childDidChange = { [weak self] index, oldRowCounts, changeSet in
            guard let self else { return }
            let start = self.children.rowCount(before: index)
            self.changes.publish(
                changeSet.flattened(
                    oldRowCounts: oldRowCounts, newRowCounts: self.children.children[index].rowCounts,
                    oldStart: start, newStart: start, intoSection: 0
                ))
        }
    }

    /// The children, in order.
    public var childDataSources: [any DataSource<Item>] { children.sources }

    /// Inserts `child` at `index` among the children; its rows appear.
    public func insertChild(_ child: any DataSource<Item>, at index: Int) {
        children.insert(child, at: index)
        let rows = Self.rows(from: children.rowCount(before: index), count: children.children[index].rowCounts.reduce(0, +))
        changes.publish(ChangeSet(inserts: rows))
    }

    /// Appends `child` after the other children.
    public func appendChild(_ child: any DataSource<Item>) {
        insertChild(child, at: children.children.count)
    }

    /// Removes and returns the child at `index`; its rows disappear.
    @discardableResult
    public func removeChild(at index: Int) -> any DataSource<Item> {
        let start = children.rowCount(before: index)
        let child = children.remove(at: index)
        changes.publish(ChangeSet(deletes: Self.rows(from: start, count: child.rowCounts.reduce(0, +))))
        return child.source
    }

    /// Always one section.
    public var numberOfSections: Int { 1 }

    public func numberOfRows(inSection section: Int) -> Int { children.rowCount(before: children.children.count) }

    public func item(at indexPath: IndexPath) -> Item {
        var row = indexPath.row
        for child in children.children {
            for (section, count) in child.rowCounts.enumerated() {
                if row < count { return child.source.item(at: IndexPath(row: row, section: section)) }
                row -= count
            }
        }
        preconditionFailure("row \(indexPath.row) out of bounds: \(numberOfRows(inSection: 0)) rows")
    }

    public func header(forSection section: Int) -> SectionHeader? { sectionHeader }

    /// The index paths of `count` rows of the section from row `start`.
    private static func rows(from start: Int, count: Int) -> [IndexPath] {
        (start..<start + count).map { IndexPath(row: $0, section: 0) }
    }
}
