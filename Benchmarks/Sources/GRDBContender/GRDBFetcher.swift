import BenchmarkKit
import GRDB

/// `fetchAll`, `fetchPage` and `frcMemory` with GRDB: the query interface and Codable records,
/// one `read` per call.
public final class GRDBFetcher: FetchContender, ResultsMemoryContender {
    /// Results are labelled `GRDB`.
    public static let library = ContenderLibrary.grdb

    private let pool: DatabasePool

    /// Opens a `DatabasePool`.
    public init(databasePath: String) throws {
        pool = try GRDBDatabase.openPool(atPath: databasePath)
    }

    /// `Item.order(score).fetchAll(db)`.
    public func fetchAllByScore() throws -> [Item] {
        try pool.read { db in
            try Item.order(ItemColumn.score).fetchAll(db)
        }
    }

    /// `Item.order(score).limit(limit, offset: offset).fetchAll(db)`.
    public func fetchPageByScore(limit: Int, offset: Int) throws -> [Item] {
        try pool.read { db in
            try Item.order(ItemColumn.score).limit(limit, offset: offset).fetchAll(db)
        }
    }
}
