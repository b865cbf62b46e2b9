/// One write transaction of the observe workloads.
public enum ItemChange: Sendable {
    /// Sets new scores and flags on existing rows.
    case update([RowUpdate])
    /// Inserts one new row.
    case insert(Item)
    /// Deletes one row.
    case delete(id: Int64)
}

/// New values for the sort key and the filter column of one existing row.
public struct RowUpdate: Sendable {
    /// The row's id.
    public var id: Int64
    /// Its new score.
    public var score: Double
    /// Its new flag.
    public var flag: Bool

    /// Creates an update of row `id`.
    public init(id: Int64, score: Double, flag: Bool) {
        self.id = id
        self.score = score
        self.flag = flag
    }
}
