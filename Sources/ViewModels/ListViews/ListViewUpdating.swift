import SQLiteStoreResults

/// A list view that shows a ``DataSource``: a UIKit table or collection view, a SwiftUI
/// list's model, or a terminal renderer.
///
/// The view reads its rows from the data source and applies each `ChangeSet` in one
/// batch, in the coordinates of UIKit's `performBatchUpdates` (deletes in old index
/// paths, inserts in new ones), then reloads the rows the change set marks as changed.
@MainActor
public protocol ListViewUpdating: AnyObject {
    /// Applies one change set in one batch; the data source already holds the new content.
    func performBatchUpdates(_ changeSet: ChangeSet)
    /// Discards what the view shows and reads everything from the data source again.
    func reloadData()
}

extension ListViewUpdating {
    /// Reloads the view now, then applies each change set `dataSource` publishes, until the
    /// returned subscription ends. The view is held weakly.
    public func show<Source: DataSource>(changesOf dataSource: Source) -> ChangeSetSubscription {
        reloadData()
        return dataSource.changes.subscribe { [weak self] changeSet in
            self?.performBatchUpdates(changeSet)
        }
    }
}
