import BenchmarkKit
import Store

/// The one line a SQLiteStore user adds to a Codable model.
extension Item: Model {
    /// The benchmark's table.
    public static let tableName = BenchmarkSchema.tableName
}

/// The request of `fetchAll` and `fetchPage`: every row ordered by score.
enum ItemRequests {
    static let allByScore = FetchRequest<Item>().order(Column("score").ascending)
}
