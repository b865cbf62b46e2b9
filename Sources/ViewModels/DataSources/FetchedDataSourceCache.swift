import Foundation
import SQLiteStoreCore
import SQLiteStoreResults

/// The cell view models a ``FetchedDataSource`` has made, keyed by the identity of their
/// objects, so that a row keeps its view model wherever a change set moves it.
///
/// A change set evicts the view models of the rows it deletes, updates or marks changed
/// (deleted sections included) and of the rows it inserts (a rowid SQLite reused); every
/// other view model stays, untouched, whatever its new index path.
struct FetchedDataSourceCache<ViewModel> {
    private var viewModels: [ObjectID: ViewModel] = [:]

    /// The view model made for `id`, if it is still valid.
    subscript(id: ObjectID) -> ViewModel? {
        get { viewModels[id] }
        set { viewModels[id] = newValue }
    }

    /// Drops the view models `changeSet` invalidates, reading old index paths in `old`
    /// and new ones in `new`.
    mutating func evict(changedBy changeSet: ChangeSet, old: FetchedResultsSnapshot, new: FetchedResultsSnapshot) {
        guard !viewModels.isEmpty else { return }
        let oldSections = old.sections
        let deletedSectionRows = changeSet.sectionDeletes.flatMap { section in
            (0..<oldSections[section].numberOfObjects).map { IndexPath(row: $0, section: section) }
        }
        let oldPaths = changeSet.deletes + changeSet.updates + changeSet.moves.filter(\.isChanged).map(\.from) + deletedSectionRows
        for path in oldPaths {
            old.objectID(at: path).map { viewModels[$0] = nil }
        }
        for path in changeSet.inserts {
            new.objectID(at: path).map { viewModels[$0] = nil }
        }
    }
}
