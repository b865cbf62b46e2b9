import Foundation
import SQLiteStoreResults

/// A data source whose sections are the sections of its children, one child after the other.
///
/// A child's change set is republished with its sections shifted by the sections of the
/// children before it; adding or removing a child publishes the insert or delete of its
/// sections. The composite holds its children; they do not hold it.
@MainActor
public final class MultiSectionDataSource<Item>: DataSource {
    private let children = DataSourceChildren<Item>()

    /// Publishes the translated change sets of the children and the effect of adding and removing them.
    public let changes = ChangeSetPublisher()

    /// Starts with `children`, in order.
    public init(children: [any DataSource<Item>] = []) {
        for child in children {
            self.children.insert(child, at: self.children.children.count)
        }
        self.children.childDidChange = { [weak self] index, _, changeSet in
            guard let self else { return }
            let offset = self.children.sectionCount(before: index)
            self.changes.publish(changeSet.offsettingSections(by: offset))
        }
    }

    /// The children, in order.
    public var childDataSources: [any DataSource<Item>] { children.sources }

    /// Inserts `child` at `index` among the children; its sections appear.
    public func insertChild(_ child: any DataSource<Item>, at index: Int) {
        children.insert(child, at: index)
        let offset = children.sectionCount(before: index)
        changes.publish(ChangeSet(sectionInserts: Array(offset..<offset + children.children[index].rowCounts.count)))
    }

    /// Appends `child` after the other children.
    public func appendChild(_ child: any DataSource<Item>) {
        insertChild(child, at: children.children.count)
    }

    /// Removes and returns the child at `index`; its sections disappear.
    @discardableResult
    public func removeChild(at index: Int) -> any DataSource<Item> {
        let offset = children.sectionCount(before: index)
        let child = children.remove(at: index)
        changes.publish(ChangeSet(sectionDeletes: Array(offset..<offset + child.rowCounts.count)))
        return child.source
    }

    public var numberOfSections: Int { children.sectionCount(before: children.children.count) }

    public func numberOfRows(inSection section: Int) -> Int {
        let (child, local) = locate(section)
        return children.children[child].rowCounts[local]
    }

    public func item(at indexPath: IndexPath) -> Item {
        let (child, local) = locate(indexPath.section)
        return children.children[child].source.item(at: IndexPath(row: indexPath.row, section: local))
    }

    public func header(forSection section: Int) -> SectionHeader? {
        let (child, local) = locate(section)
        return children.children[child].source.header(forSection: local)
    }

    /// The child showing `section`, and the section's index in that child.
    private func locate(_ section: Int) -> (child: Int, section: Int) {
        var local = section
        for (index, child) in children.children.enumerated() {
            if local < child.rowCounts.count { return (index, local) }
            local -= child.rowCounts.count
        }
        preconditionFailure("section \(section) out of bounds: \(numberOfSections) sections")
    }
}
