import Foundation
import SQLiteStoreCore
import SQLiteStoreResults

/// A data source over the live results of a `FetchedResultsController`: one section per
/// section of the results, headed by its name, and one cell view model per object, made by
/// a factory on first access and cached by `ObjectID`.
///
/// ```swift
/// let notes = FetchedDataSource(
///     store: store,
///     request: StoreRequest<Note>().order(Column("title").ascending),
///     placeholder: { _ in NoteCell.loading }
/// ) { note in NoteCell(note) }
/// try notes.performFetch()
/// let list = InMemoryListView(dataSource: notes)   // or a UIKit table, a SwiftUI list
/// ```
///
/// Each change set of the controller first updates the data source's results and cache,
/// then is published through ``changes``, unchanged: its coordinates are the controller's.
///
/// The cache is moved, not rebuilt: a row that moves, or stays while others come and go,
/// keeps its view model instance. A row the change set updates (in place or while moving)
/// loses its view model and gets a fresh one from the factory at its next read, which is
/// when a list view reloads it: cell view models are values derived from their object, and
/// a fresh one can never show stale data. Deleted rows are evicted. The cache keeps the
/// view models of every row read since its last change (evict them all with
/// ``removeCachedViewModels()``).
///
/// The data source takes each change along with the controller, leaving its `didChange` and
/// `changes()` free for you. It holds the controller, and the controller
/// holds it weakly: releasing the data source releases the controller (unless you keep it)
/// and ends every subscription.
@MainActor
public final class FetchedDataSource<M: StoreModel, CellViewModel>: DataSource {
    /// The controller whose results the data source shows.
    public let controller: FetchedResultsController<M>
    /// Publishes each change set of the controller, after the data source took it.
    public let changes = ChangeSetPublisher()
    /// The results the data source shows, as of the last change set it published.
    public private(set) var results: FetchedResultsSnapshot
    /// The last failure to read an object for a cell (a placeholder was shown instead).
    public private(set) var lastError: FetchedResultsError?

    private var sections: [FetchedSection]
    private var cache = FetchedDataSourceCache<CellViewModel>()
    private var deliveredChanges = 0
    private let makeViewModel: @MainActor (M) -> CellViewModel
    private let placeholder: @MainActor (ObjectID) -> CellViewModel
    private var subscription: FetchedResultsSubscription?

    /// Shows the results of `controller`, making each row's view model with `makeViewModel`.
    ///
    /// `placeholder` gives the view model of a row whose object cannot be read: deleted since
    /// the results were delivered (its change set is on its way) or a failed read
    /// (``lastError``). Placeholders are not cached; the next read tries again.
    public init(
        controller: FetchedResultsController<M>,
        placeholder: @escaping @MainActor (ObjectID) -> CellViewModel,
        makeViewModel: @escaping @MainActor (M) -> CellViewModel
    ) {
        self.controller = controller
        self.makeViewModel = makeViewModel
        self.placeholder = placeholder
        results = controller.results
        sections = controller.results.sections
        subscription = controller.subscribe { [weak self] change in
            self?.apply(change.changeSet, results: change.results)
        }
    }

    /// Shows the results of `request` over `store`, through a controller of its own.
    public convenience init(
        store: Store,
        request: StoreRequest<M>,
        placeholder: @escaping @MainActor (ObjectID) -> CellViewModel,
        makeViewModel: @escaping @MainActor (M) -> CellViewModel
    ) {
        self.init(
            controller: FetchedResultsController(store: store, request: request),
            placeholder: placeholder, makeViewModel: makeViewModel)
    }

    /// Fetches the controller's results and publishes the change from what the data source
    /// showed (nothing, the first time) to them. Throws what `performFetch()` of the controller throws.
    public func performFetch() throws(FetchedResultsError) {
        let delivered = deliveredChanges
        try controller.performFetch()
        guard deliveredChanges == delivered else { return }
        let fetched = controller.results
        apply(ChangeSet(from: results.sectionedSnapshot(), to: fetched.sectionedSnapshot()), results: fetched)
    }

    /// Forgets every cached view model; rows get fresh ones at their next read.
    public func removeCachedViewModels() {
        cache = FetchedDataSourceCache()
    }

    public var numberOfSections: Int { sections.count }

    public func numberOfRows(inSection section: Int) -> Int { sections[section].numberOfObjects }

    /// The section's name, when the request has a section key and the key is not NULL.
    public func header(forSection section: Int) -> SectionHeader? {
        sections[section].name.map(SectionHeader.init(title:))
    }

    /// The cached view model of the row, or a new one from the factory.
    public func item(at indexPath: IndexPath) -> CellViewModel {
        guard let id = results.objectID(at: indexPath) else {
            preconditionFailure("index path \(indexPath) is out of bounds of the fetched results")
        }
        if let cached = cache[id] { return cached }
        do {
            let viewModel = makeViewModel(try controller.object(at: indexPath))
            cache[id] = viewModel
            return viewModel
        } catch {
            lastError = error
            return placeholder(id)
        }
    }

    /// Takes one change: the cache first, then the results, then the subscribers.
    private func apply(_ changeSet: ChangeSet, results new: FetchedResultsSnapshot) {
        cache.evict(changedBy: changeSet, old: results, new: new)
        results = new
        sections = new.sections
        deliveredChanges += 1
        changes.publish(changeSet)
    }
}
