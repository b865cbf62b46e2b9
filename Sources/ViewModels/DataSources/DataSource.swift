import Foundation
import SQLiteStoreResults

/// Sections of rows for a list, each row an `Item` (usually a cell view model), and the
/// `ChangeSet` of each change, published through ``changes``.
///
/// A data source changes its content first and publishes the change set after, so a
/// subscriber reading the data source inside its handler sees the new content; that is
/// what `performBatchUpdates` in UIKit and ``ListViewUpdating`` expect. Index paths out
/// of bounds are programmer errors and trap, as array subscripts do.
@MainActor
public protocol DataSource<Item>: AnyObject {
    /// The type of a row, usually a cell view model.
    associatedtype Item

    /// The number of sections.
    var numberOfSections: Int { get }
    /// The number of rows in `section`.
    func numberOfRows(inSection section: Int) -> Int
    /// The row at `indexPath`.
    func item(at indexPath: IndexPath) -> Item
    /// The header of `section`, or `nil` for none (the default).
    func header(forSection section: Int) -> SectionHeader?
    /// Publishes a change set after each change of the content.
    var changes: ChangeSetPublisher { get }
}

extension DataSource {
    /// No headers.
    public func header(forSection section: Int) -> SectionHeader? { nil }

    /// The rows of `section`, in order.
    public func items(inSection section: Int) -> [Item] {
        (0..<numberOfRows(inSection: section)).map { item(at: IndexPath(row: $0, section: section)) }
    }

    /// The rows of every section: the whole content, for tests and small lists.
    public var allItems: [[Item]] {
        (0..<numberOfSections).map(items(inSection:))
    }

    /// The number of rows of each section.
    var rowCounts: [Int] {
        (0..<numberOfSections).map(numberOfRows(inSection:))
    }
}
