import BenchmarkKit
import CSQLiteBench

/// `fetchAll`, `fetchPage` and `frcMemory` with the C API: prepared once, stepped and read
/// column by column into models.
public final class RawCFetcher: FetchContender, ResultsMemoryContender {
    /// Results are labelled `rawC`.
    public static let library = ContenderLibrary.rawC

    private let connection: SQLiteConnection
    private let allStatement: PreparedStatement
    private let pageStatement: PreparedStatement

    /// Opens one connection and prepares both queries.
    public init(databasePath: String) throws {
        connection = try SQLiteConnection(path: databasePath)
        allStatement = try connection.prepare(ItemSQL.allByScore)
        pageStatement = try connection.prepare(ItemSQL.pageByScore)
    }

    /// Steps the ordered query once.
    public func fetchAllByScore() throws -> [Item] {
        try allStatement.readAllItems()
    }

    /// Binds limit and offset, then steps the page query.
    public func fetchPageByScore(limit: Int, offset: Int) throws -> [Item] {
        sqlite3_bind_int64(pageStatement.handle, 1, Int64(limit))
        sqlite3_bind_int64(pageStatement.handle, 2, Int64(offset))
        return try pageStatement.readAllItems()
    }
}
