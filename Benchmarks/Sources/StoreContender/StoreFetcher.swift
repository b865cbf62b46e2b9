import BenchmarkKit
import SQLiteStoreCore

/// `fetchAll` and `fetchPage` with SQLiteStore: a `StoreRequest` fetched in one `read`.
public final class StoreFetcher: FetchContender {
    /// Results are labelled `SQLiteStore`.
    public static let library = ContenderLibrary.sqliteStore

    private let store: Store

    /// Opens a `Store` with its default configuration.
    public init(databasePath: String) throws {
        store = try Store(path: databasePath)
    }

    /// `db.fetch(StoreRequest<Item>().order(Column("score").ascending))`.
    public func fetchAllByScore() throws -> [Item] {
        try store.read { db in
            try db.fetch(ItemRequests.allByScore)
        }
    }

    /// The same request with `.limit(limit, offset: offset)`.
    public func fetchPageByScore(limit: Int, offset: Int) throws -> [Item] {
        try store.read { db in
            try db.fetch(ItemRequests.allByScore.limit(limit, offset: offset))
        }
    }
}
