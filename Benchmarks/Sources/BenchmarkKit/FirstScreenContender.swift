/// Workloads `firstScreen`, `firstScreenSectioned`, `firstScreenUnindexed` and
/// `completeResults`: a live list of the flagged rows in one of the `FirstScreenOrder`s, timed
/// from its creation.
public protocol FirstScreenContender: Contender {
    /// The model the list holds: `Item`, or SQLiteStore's `@StoreModel` twin of it.
    associatedtype Model: BenchmarkModel

    /// Opens the seeded database at `databasePath`; not measured.
    init(databasePath: String) async throws

    /// Creates the live list in `order` and returns the models of its first `count` rows, in
    /// order: what a list view shows first. The list is released afterwards.
    func firstScreen(count: Int, order: FirstScreenOrder) async throws -> [Model]

    /// Creates the live list (by score) and returns its row count once it holds every row.
    func completeResults() async throws -> Int
}

/// The orders of the first-screen workloads, all over the flagged rows.
public enum FirstScreenOrder: String, CaseIterable, Sendable {
    /// By score: an index serves it.
    case score
    /// By category, then score, in sections by category: an index (added to each copy) serves it.
    case sectioned
    /// By title: no index has it, so SQLite sorts (a top-N sort for a `LIMIT` query).
    case unindexed
}

/// The SQL of the first-screen workloads.
public enum FirstScreenSQL {
    /// The index that serves the sectioned order, created on each copy before it is measured.
    public static let categoryIndex = "CREATE INDEX IF NOT EXISTS item_category_score ON item(category, score)"

    /// The first rows by score; parameter 1 is the limit.
    public static let pageByScore = "\(selectFlagged) ORDER BY score, id LIMIT ?"

    /// The first rows by category, then score; parameter 1 is the limit.
    public static let pageByCategoryAndScore = "\(selectFlagged) ORDER BY category, score, id LIMIT ?"

    /// The first rows by title (no index); parameter 1 is the limit.
    public static let pageByTitle = "\(selectFlagged) ORDER BY title, id LIMIT ?"

    /// Every flagged row by score, the rowid and the key first, then the row's values.
    public static let scanByScore = "SELECT id, score, title, createdAt, flag, category FROM item WHERE flag = 1 ORDER BY score, id"

    private static let selectFlagged = "SELECT id, title, score, createdAt, flag, category FROM item WHERE flag = 1"
}
