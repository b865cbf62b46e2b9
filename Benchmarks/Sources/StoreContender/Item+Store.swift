import BenchmarkKit
import SQLiteStoreCore

/// The one line a SQLiteStore user adds to a Codable model.
extension Item: StoreModel {
    /// The benchmark's table.
    public static let tableName = BenchmarkSchema.tableName
}

/// The request of `fetchAll` and `fetchPage`: every row ordered by score.
enum ItemRequests {
    static let allByScore = StoreRequest<Item>().order(Column("score").ascending)
}

extension ItemRequests {
    /// The live query of the observe workloads: the flagged half of the rows, by score.
    static let flaggedByScore = StoreRequest<Item>().filter(Column("flag") == 1).order(Column("score").ascending)
}
