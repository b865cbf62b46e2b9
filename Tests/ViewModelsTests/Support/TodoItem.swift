import Foundation
import Observation
import SQLiteStoreCore
import SQLiteStoreViewModels

/// The parent model of the relationship tests: a list of items.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct TodoList: StoreModel, Equatable {
    static let tableName = "list"
    var id: Int64?
    var name: String
}

/// The child model: an item that may belong to a list.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct TodoItem: StoreModel, Equatable {
    static let tableName = "item"
    var id: Int64?
    var title: String
    var listID: Int64?

    enum CodingKeys: String, CodingKey {
        case id, title
        case listID = "list_id"
    }

    static let list = ToOne<TodoItem, TodoList>("list", foreignKey: "list_id")

    /// The schema, with the delete rule of the item's foreign key (`SET NULL` or `CASCADE`).
    static func schema(onDelete rule: String) -> String {
        """
        CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE item(
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            list_id INTEGER REFERENCES list(id) ON DELETE \(rule)
        );
        CREATE INDEX item_list ON item(list_id);
        """
    }
}

/// What a ``TodoItemViewModel`` was told, kept outside it so it can be read after its release.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class TodoItemRuns {
    var listName = 0
    var relatedDeletions: [ObjectID] = []
    var deletions = 0
}

/// A view model showing an item's title and its list's name.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class TodoItemViewModel: StoreViewModel<TodoItem> {
    var title = ""
    var listName: String?
    @ObservationIgnored let runs = TodoItemRuns()

    override init(store: Store, id: Int64) {
        super.init(store: store, id: id)
        bindModel(\.title) { viewModel, title in viewModel.title = title }
        bindModel(TodoItem.list, \.name) { viewModel, name in
            viewModel.listName = name
            viewModel.runs.listName += 1
        }
    }

    override func relatedObjectWasDeleted(_ objectID: ObjectID, through link: ToOneLink) {
        runs.relatedDeletions.append(objectID)
    }

    override func objectWasDeleted() {
        runs.deletions += 1
    }
}
