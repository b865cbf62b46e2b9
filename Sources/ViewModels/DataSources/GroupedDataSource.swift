import Foundation
import SQLiteStoreResults

/// A data source with one section per group key, in ascending key order, each holding the
/// items of that key in the order they were added.
///
/// A group appears (a section insert) with the first item of its key and disappears
/// (a section delete) with its last item. Every edit publishes its change set; changing
/// an item's key publishes its removal from the old group, then its addition to the new one.
@MainActor
public final class GroupedDataSource<Key: Comparable, Item>: DataSource {
    private let groups = MultiSectionDataSource<Item>()
    private var groupKeys: [Key] = []
    private var groupItems: [MutableArrayDataSource<Item>] = []
    private let key: (Item) -> Key
    private let title: (Key) -> String
    private var subscription: ChangeSetSubscription?

    /// Publishes one change set per edit.
    public let changes = ChangeSetPublisher()

    /// Groups `items` by `key`; each section's header is `title` of its key.
    public init(items: [Item] = [], key: @escaping (Item) -> Key, title: @escaping (Key) -> String = { "\($0)" }) {
        self.key = key
        self.title = title
        for item in items {
            append(item)
        }
        subscription = groups.changes.subscribe { [weak self] changeSet in
            self?.changes.publish(changeSet)
        }
    }

    /// The group keys, in section order.
    public var keys: [Key] { groupKeys }

    /// Adds `item` at the end of the group of its key, creating the group if needed.
    public func append(_ item: Item) {
        let itemKey = key(item)
        let index = groupIndex(of: itemKey)
        if index < groupKeys.count, groupKeys[index] == itemKey {
            groupItems[index].append(item)
        } else {
            let group = MutableArrayDataSource(items: [item])
            groupKeys.insert(itemKey, at: index)
            groupItems.insert(group, at: index)
            groups.insertChild(group, at: index)
        }
    }

    /// Removes and returns the item at `indexPath`; the group goes with its last item.
    @discardableResult
    public func remove(at indexPath: IndexPath) -> Item {
        let group = groupItems[indexPath.section]
        guard group.numberOfRows(inSection: 0) == 1 else {
            return group.remove(at: IndexPath(row: indexPath.row, section: 0))
        }
        let item = group.item(at: IndexPath(row: indexPath.row, section: 0))
        groupKeys.remove(at: indexPath.section)
        groupItems.remove(at: indexPath.section)
        groups.removeChild(at: indexPath.section)
        return item
    }

    /// Replaces the item at `indexPath`: in place when its key stays, otherwise by removing
    /// it and appending the new item to the group of its key.
    public func replace(at indexPath: IndexPath, with item: Item) {
        guard key(item) == groupKeys[indexPath.section] else {
            remove(at: indexPath)
            append(item)
            return
        }
        groupItems[indexPath.section].replace(at: IndexPath(row: indexPath.row, section: 0), with: item)
    }

    public var numberOfSections: Int { groupKeys.count }

    public func numberOfRows(inSection section: Int) -> Int { groupItems[section].numberOfRows(inSection: 0) }

    public func item(at indexPath: IndexPath) -> Item {
        groupItems[indexPath.section].item(at: IndexPath(row: indexPath.row, section: 0))
    }

    /// The title of the section's key.
    public func header(forSection section: Int) -> SectionHeader? {
        SectionHeader(title: title(groupKeys[section]))
    }

    /// The index of the first key not less than `key`: its group, or where its group goes.
    private func groupIndex(of key: Key) -> Int {
        var low = 0
        var high = groupKeys.count
        while low < high {
            let middle = (low + high) / 2
            if groupKeys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
