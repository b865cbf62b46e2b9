import BenchmarkKit
import SQLiteStoreCore
import StoreContender

/// The `included` workload's live query: every item ordered by score, each row with its list
/// (`including`), batch size 100. A rename changes no order: the list's 100 items are updates.
enum IncludedListQuery {
    /// A list of the related database.
    struct List: StoreModel {
        static let tableName = "list"
        var id: Int64?
        var name: String
    }

    static let list = ToOne<Item, List>("list", foreignKey: "list_id")
    static let request = StoreRequest<Item>().order(Column("score").ascending).batchSize(100).including(list)
}
