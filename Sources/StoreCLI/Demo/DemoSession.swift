import Foundation
import SQLiteStoreCore
import SQLiteStoreResults
import SQLiteStoreViewModels

/// The demo app: a fetched data source over items (those of one list, sectioned by category,
/// or those of two lists, sectioned by list name), shown by a list view; a view model for one
/// item; and a command that writes. Each edit
/// prints the change set the list view applied, the list with the touched rows marked, and
/// the view model's properties.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class DemoSession {
    private let dataSource: FetchedDataSource<DemoItem, DemoItemCell>
    private let listView: InMemoryListView<DemoItemCell>
    private let viewModel: DemoItemViewModel
    private let command: Command<DemoEdit, Void>
    private let store: Store
    private var marking: ChangeSetSubscription?
    private var shownResults: FetchedResultsSnapshot
    private var marks: [Int64: String] = [:]
    /// When the data source last published a change set.
    private var lastPublished: ContinuousClock.Instant?
    private(set) var latencies: [Duration] = []
    private(set) var failures = 0

    init(store: Store, request: StoreRequest<DemoItem>, listID: Int64, watchedItemID: Int64) throws {
        dataSource = FetchedDataSource(
            store: store, request: request,
            placeholder: { DemoItemCell(placeholderFor: $0.rowID) }, makeViewModel: DemoItemCell.init)
        try dataSource.performFetch()
        shownResults = dataSource.results
        listView = InMemoryListView(dataSource: dataSource)
        self.store = store
        viewModel = DemoItemViewModel(store: store, id: watchedItemID)
        try viewModel.start()
        command = Command { edit in try await store.write { db in try edit.apply(in: db, listID: listID) } }
        marking = dataSource.changes.subscribe { [weak self] changeSet in self?.mark(changeSet) }
    }

    /// Prints the list and the view model as they are, and writes the screen out at once, into
    /// a pipe too (standard output is buffered there): `store demo | tee`, and `.ci/run` timing
    /// the first screen, see each screen when it is made.
    func printState() {
        for line in listView.lines(describing: { "\(self.marks[$0.id] ?? " ") \($0.text)" }) { print("  " + line) }
        print("  view model: \(viewModel.summary)")
        fflush(nil)
    }

    /// Runs `edit` through the command and waits for the list view to apply its change set.
    func perform(_ edit: DemoEdit) async {
        print("▶ \(edit)")
        let applied = listView.appliedChangeSets.count
        let started = ContinuousClock.now
        let outcome = await command.execute(edit)
        if case .failed(let error) = outcome {
            failures += 1
            print("  failed: \(error)")
            return
        }
        let deadline = ContinuousClock.now + .seconds(2)
        while listView.appliedChangeSets.count == applied, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        guard let changeSet = listView.appliedChangeSets.last, listView.appliedChangeSets.count > applied else {
            print("  (the list did not change)")
            return
        }
        // The change set usually reaches the list before the command returns, so time it from
        // the start of the write to the data source's publication.
        let latency = (lastPublished ?? ContinuousClock.now) - started
        latencies.append(latency)
        print("  change set \(changeSet) applied to the list view \(latency.millisecondsText) ms after the write began")
        await waitForViewModel()
        printState()
    }

    /// Waits (at most 2 s) until the view model, which follows the item and its list through
    /// its own observation of the same commit, shows them as they are stored now.
    private func waitForViewModel() async {
        let id = viewModel.objectID.rowID
        let stored = try? await store.read { db in
            try db.fetchOne(DemoItem.self, id: id).map { item in
                (item, try db.fetchOne(DemoList.self, id: item.listID)?.name ?? "no list")
            }
        }
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline,
            stored.map({ viewModel.object != $0.0 || viewModel.listName != $0.1 }) ?? !viewModel.isDeleted
        {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// What happened, for the end of the session.
    var summary: String {
        let sorted = latencies.sorted()
        let median = sorted.isEmpty ? "–" : sorted[sorted.count / 2].millisecondsText + " ms"
        return "\(listView.appliedChangeSets.count) change sets applied to the list view (\(listView.errors.count) that did not fit, "
            + "\(listView.reloadCount) full load), median write-to-list time \(median); the view model recomputed "
            + "\(viewModel.updateCount) time\(viewModel.updateCount == 1 ? "" : "s")\(viewModel.isDeleted ? " and saw its item deleted" : ""); "
            + "\(failures) command\(failures == 1 ? "" : "s") failed."
    }

    func stop() {
        marking?.cancel()
        viewModel.stop()
    }

    private func mark(_ changeSet: ChangeSet) {
        lastPublished = ContinuousClock.now
        marks = DemoChangeMarks.of(changeSet, old: shownResults, new: dataSource.results)
        shownResults = dataSource.results
    }
}
