import BenchmarkKit
import SQLiteStoreCore

/// The one line a SQLiteStore user adds to a Codable model.
extension Item: StoreModel {
    /// The benchmark's table.
    public static let tableName = BenchmarkSchema.tableName
}

/// The request of `fetchAll` and `fetchPage`: every row ordered by score.
public enum ItemRequests {
    static let allByScore = StoreRequest<Item>().order(Column("score").ascending)
}

extension ItemRequests {
    /// The live query of the observe workloads: the flagged half of the rows, by score.
    public static let flaggedByScore = StoreRequest<Item>().filter(Column("flag") == 1).order(Column("score").ascending)
}

extension ItemRequests {
    /// `frcMemoryText`: every row by a short text (the category, at most 7 bytes) then an
    /// integer (the flag).
    static let allByCategoryAndFlag = StoreRequest<Item>().order(Column("category").ascending, Column("flag").ascending)

    /// `frcMemoryLongText`: every row by a text longer than 16 bytes (the title, 17–18 bytes)
    /// then an integer (the flag).
    static let allByTitleAndFlag = StoreRequest<Item>().order(Column("title").ascending, Column("flag").ascending)
}
