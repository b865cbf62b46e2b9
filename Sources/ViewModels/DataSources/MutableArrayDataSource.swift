import Foundation
import SQLiteStoreResults

/// A data source over sections of items that you edit; each edit publishes its change set.
///
/// Index paths must be valid for the edit, as array indexes must: an invalid one traps.
@MainActor
public final class MutableArrayDataSource<Item>: DataSource {
    /// The rows of each section.
    public private(set) var sections: [[Item]]

    /// Publishes one change set per edit.
    public let changes = ChangeSetPublisher()

    /// Starts with `sections`.
    public init(sections: [[Item]]) {
        self.sections = sections
    }

    /// Starts with one section holding `items`.
    public convenience init(items: [Item] = []) {
        self.init(sections: [items])
    }

    public var numberOfSections: Int { sections.count }

    public func numberOfRows(inSection section: Int) -> Int { sections[section].count }

    public func item(at indexPath: IndexPath) -> Item { sections[indexPath.section][indexPath.row] }

    /// Inserts `item` so that it ends up at `indexPath`.
    public func insert(_ item: Item, at indexPath: IndexPath) {
        sections[indexPath.section].insert(item, at: indexPath.row)
        changes.publish(ChangeSet(inserts: [indexPath]))
    }

    /// Appends `item` to the end of `section`.
    public func append(_ item: Item, toSection section: Int = 0) {
        insert(item, at: IndexPath(row: sections[section].count, section: section))
    }

    /// Removes and returns the item at `indexPath`.
    @discardableResult
    public func remove(at indexPath: IndexPath) -> Item {
        let item = sections[indexPath.section].remove(at: indexPath.row)
        changes.publish(ChangeSet(deletes: [indexPath]))
        return item
    }

    /// Moves the item at `source` so that it ends up at `destination`, possibly in another section.
    public func move(from source: IndexPath, to destination: IndexPath) {
        guard source != destination else { return }
        let item = sections[source.section].remove(at: source.row)
        sections[destination.section].insert(item, at: destination.row)
        changes.publish(ChangeSet(moves: [.init(from: source, to: destination)]))
    }

    /// Replaces the item at `indexPath`, published as an update of that row.
    public func replace(at indexPath: IndexPath, with item: Item) {
        sections[indexPath.section][indexPath.row] = item
        changes.publish(ChangeSet(updates: [indexPath]))
    }

    /// Inserts a section holding `items` so that it ends up at index `section`.
    public func insertSection(_ items: [Item], at section: Int) {
        sections.insert(items, at: section)
        changes.publish(ChangeSet(sectionInserts: [section]))
    }

    /// Removes and returns the section at index `section`.
    @discardableResult
    public func removeSection(at section: Int) -> [Item] {
        let items = sections.remove(at: section)
        changes.publish(ChangeSet(sectionDeletes: [section]))
        return items
    }
}
