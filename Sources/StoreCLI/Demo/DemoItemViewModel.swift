import Observation
import SQLiteStoreCore
import SQLiteStoreViewModels

/// The view model of one item: derived properties a detail screen would show, each bound
/// to the item's values; deletion is the base class's own state.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class DemoItemViewModel: StoreViewModel<DemoItem> {
    /// The item's title.
    private(set) var title = ""
    /// "done", "due YYYY-MM-DD" or "open".
    private(set) var status = ""
    /// The name of the item's list, followed through the relationship: a rename shows here.
    private(set) var listName = ""
    /// How many times a derived property was recomputed after the first time.
    private(set) var updateCount = 0

    override init(store: Store, id: Int64) {
        super.init(store: store, id: id)
        bindModel(\.title) { viewModel, title in viewModel.set(\.title, to: title) }
        bindModel(\.status) { viewModel, status in viewModel.set(\.status, to: status) }
        bindModel(DemoItem.list, \.name) { viewModel, name in viewModel.set(\.listName, to: name ?? "no list") }
    }

    /// One line for the terminal.
    var summary: String {
        isDeleted
            ? "item #\(objectID.rowID) was deleted"
            : "\"\(title)\" in \(listName) · \(status) · \(updateCount) update\(updateCount == 1 ? "" : "s")"
    }

    private func set(_ property: ReferenceWritableKeyPath<DemoItemViewModel, String>, to value: String) {
        if !self[keyPath: property].isEmpty { updateCount += 1 }
        self[keyPath: property] = value
    }
}
