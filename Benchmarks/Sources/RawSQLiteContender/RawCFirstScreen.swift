import BenchmarkKit
import CSQLiteBench

/// The first-screen workloads with the C API, the floor: the first screen is the `LIMIT` query
/// of the same order; the complete results are one ordered scan of the flagged rows reading
/// every column (as the controller's index reads the rowid, the key and the values it
/// fingerprints), without building models.
public final class RawCFirstScreen: FirstScreenContender {
    /// Results are labelled `rawC`.
    public static let library = ContenderLibrary.rawC

    private let connection: SQLiteConnection
    private let page: PreparedStatement
    private let sectionedPage: PreparedStatement
    private let unindexedPage: PreparedStatement
    private let scan: PreparedStatement

    /// Opens one connection and prepares the queries.
    public init(databasePath: String) throws {
        connection = try SQLiteConnection(path: databasePath)
        page = try connection.prepare(FirstScreenSQL.pageByScore)
        sectionedPage = try connection.prepare(FirstScreenSQL.pageByCategoryAndScore)
        unindexedPage = try connection.prepare(FirstScreenSQL.pageByTitle)
        scan = try connection.prepare(FirstScreenSQL.scanByScore)
    }

    /// Binds the limit and steps the page query.
    public func firstScreen(count: Int, order: FirstScreenOrder) throws -> [Item] {
        let statement =
            switch order {
            case .score: page
            case .sectioned: sectionedPage
            case .unindexed: unindexedPage
            }
        sqlite3_bind_int64(statement.handle, 1, Int64(count))
        return try statement.readAllItems()
    }

    /// Steps the ordered scan, reading each column's value (texts as bytes).
    public func completeResults() throws -> Int {
        var rows = 0
        var checksum = 0
        while true {
            let code = sqlite3_step(scan.handle)
            guard code == SQLITE_ROW else {
                sqlite3_reset(scan.handle)
                try scan.check(code)
                break
            }
            rows += 1
            checksum &+= Int(sqlite3_column_int64(scan.handle, 0)) &+ Int(sqlite3_column_double(scan.handle, 1))
            checksum &+= Int(sqlite3_column_bytes(scan.handle, 2)) &+ Int(sqlite3_column_double(scan.handle, 3))
            checksum &+= Int(sqlite3_column_int64(scan.handle, 4)) &+ Int(sqlite3_column_bytes(scan.handle, 5))
        }
        return checksum == 0 ? 0 : rows
    }
}
