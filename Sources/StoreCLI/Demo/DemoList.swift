import SQLiteStore
import SQLiteStoreMacros

/// A row of the example schema's `list` table, as the demo reads it.
@StoreModel(table: "list")
struct DemoList: Equatable {
    var id: Int64?
    var name: String
}

extension DemoItem {
    /// The item's list: `item.list_id` refers to `list.id`.
    static let list = ToOne<DemoItem, DemoList>("list", foreignKey: "list_id")

    /// The items of the lists `listIDs`, sectioned by their list's name, by title inside a list.
    static func sectionedByListName(inLists listIDs: [Int64]) -> StoreRequest<DemoItem> {
        StoreRequest<DemoItem>()
            .filter { $0.listID.in(listIDs) }
            .order { [DemoItem.list.name.ascending, $0.title.ascending] }
            .sectioned { _ in DemoItem.list.name }
    }
}
