import BenchmarkKit
import SQLiteStoreCore
import SQLiteStoreMacros

/// The benchmark's row declared as a SQLiteStore user declares a model with the macro: read
/// and bound by column index, no `Codable` container.
@StoreModel(table: "item")
public struct MacroItem: BenchmarkModel {
    /// The rowid, assigned by the database on insert.
    public var id: Int64?
    /// A short unique-looking text.
    public var title: String
    /// The sort key.
    public var score: Double
    /// Seconds since 1970.
    public var createdAt: Double
    /// Whether the row is flagged.
    public var flag: Bool
    /// One of a few category names.
    public var category: String

    /// The same values as `item`.
    public init(_ item: Item) {
        id = item.id
        title = item.title
        score = item.score
        createdAt = item.createdAt
        flag = item.flag
        category = item.category
    }
}

extension MacroItem {
    /// `fetchAll`'s request, typed: every row by score.
    static let byScore = StoreRequest<MacroItem>().order { $0.score.ascending }
}
