import SQLiteStoreResults

/// The children of a composite data source, with the row counts of each child's sections
/// as the composite last saw them, so that the composite can place a child's change set:
/// a child's coordinates before its change come from these counts.
@MainActor
final class DataSourceChildren<Item> {
    struct Child {
        let source: any DataSource<Item>
        let subscription: ChangeSetSubscription
        var rowCounts: [Int]
    }

    /// Called after a child published `changeSet`, with the child's index and its row counts
    /// before the change; the counts kept here are already the new ones.
    var childDidChange: (_ index: Int, _ oldRowCounts: [Int], _ changeSet: ChangeSet) -> Void = { _, _, _ in }

    private(set) var children: [Child] = []

    /// The children's data sources, in order.
    var sources: [any DataSource<Item>] { children.map(\.source) }

    /// Adds `source` at `index` and starts following its changes.
    func insert(_ source: any DataSource<Item>, at index: Int) {
        let subscription = source.changes.subscribe { [weak self, weak source] changeSet in
            guard let self, let source else { return }
            self.childPublished(changeSet, by: source)
        }
        children.insert(Child(source: source, subscription: subscription, rowCounts: source.rowCounts), at: index)
    }

    /// Removes the child at `index` and stops following it.
    func remove(at index: Int) -> Child {
        let child = children.remove(at: index)
        child.subscription.cancel()
        return child
    }

    /// The number of sections of the children before `index`.
    func sectionCount(before index: Int) -> Int {
        children[..<index].reduce(0) { $0 + $1.rowCounts.count }
    }

    /// The number of rows of the children before `index`.
    func rowCount(before index: Int) -> Int {
        children[..<index].reduce(0) { $0 + $1.rowCounts.reduce(0, +) }
    }

    private func childPublished(_ changeSet: ChangeSet, by source: any DataSource<Item>) {
        guard let index = children.firstIndex(where: { $0.source === source }) else { return }
        let oldRowCounts = children[index].rowCounts
        children[index].rowCounts = source.rowCounts
        childDidChange(index, oldRowCounts, changeSet)
    }
}
