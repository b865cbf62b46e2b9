import SQLiteStoreCore

/// A row of the example schema's `list` table, as the demo reads it; conformed by hand, as
/// `@StoreModel(table: "list")` would, like `DemoItem`.
struct DemoList: Equatable, TypedStoreModel {
    var id: Int64?
    var name: String

    static let tableName = "list"
    static let storeColumns: [ModelColumn]? = [
        ModelColumn("id", affinity: .integer, isNullable: true, isPrimaryKey: true),
        ModelColumn("name", affinity: .text),
    ]

    /// The typed columns of requests: `$0.name == "Errands"`.
    struct Columns: Sendable {
        let id = TypedColumn<DemoList, Int64?>("id")
        let name = TypedColumn<DemoList, String>("name")
    }
    static let columns = Columns()

    init(row: StoreRow) throws {
        let id = try row.decode(Int64?.self, at: 0)
        let name = try row.decode(String.self, at: 1)
        self.id = id
        self.name = name
    }

    func encode(to bindings: StoreBindings) throws {
        try bindings.bind(id, at: 0)
        try bindings.bind(name, at: 1)
    }
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
