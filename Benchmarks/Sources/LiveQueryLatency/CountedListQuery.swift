import BenchmarkKit
import SQLiteStoreCore
import StoreContender

/// The `counted` workload's live query: every list of the related database ordered by its
/// number of flagged items (a conditional related count), most first, then by name, batch
/// size 100. Adding a flagged item to a list moves that list. The `filtered` workload's
/// query is the same, filtered by the lists' items (`any()`: every list has items).
enum CountedListQuery {
    /// A list of the related database.
    struct List: StoreModel {
        static let tableName = "list"
        var id: Int64?
        var name: String
    }

    static let items = ToMany<List, MacroItem>("items", inverse: ToOne<MacroItem, List>("list", foreignKey: "list_id"))
    static let flaggedItems = items.count { $0.flag == true }
    static let request = StoreRequest<List>().order(flaggedItems.descending, Column("name").ascending).batchSize(100)
    static let filteredRequest = request.filter(items.any())

    /// Adds one flagged item to the list whose id is `?1`.
    static let addItem = "INSERT INTO item(title, score, createdAt, flag, category, list_id) VALUES ('added', 0.5, 0, 1, 'c', ?1)"
}
