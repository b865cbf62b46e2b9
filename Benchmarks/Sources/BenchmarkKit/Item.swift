/// One row of the `item` table, modelled the way each contender's users would model it:
/// a `Codable` value whose `id` is `nil` until the row is inserted.
public struct Item: Codable, Sendable, Equatable {
    /// The rowid, assigned by the database on insert.
    public var id: Int64?
    /// A short unique-looking text.
    public var title: String
    /// The sort key of every ordered workload; uniform in `0..<1000`.
    public var score: Double
    /// Seconds since 1970.
    public var createdAt: Double
    /// Whether the row belongs to the live query of the observe workloads (about half the rows).
    public var flag: Bool
    /// One of a few category names.
    public var category: String

    /// Creates an item; `id` stays `nil` for rows not yet inserted.
    public init(id: Int64? = nil, title: String, score: Double, createdAt: Double, flag: Bool, category: String) {
        self.id = id
        self.title = title
        self.score = score
        self.createdAt = createdAt
        self.flag = flag
        self.category = category
    }
}
