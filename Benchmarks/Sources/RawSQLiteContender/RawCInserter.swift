import BenchmarkKit
import CSQLiteBench

/// `insert` and `notifyOverhead` with the C API: one prepared statement bound and stepped per
/// row; the subscriber is an update hook collecting rowids, handed over after `COMMIT`.
public final class RawCInserter: InsertContender {
    /// Results are labelled `rawC`.
    public static let library = ContenderLibrary.rawC

    private let connection: SQLiteConnection
    private let insertStatement: PreparedStatement
    private var subscriber: RowidSubscriber?

    /// Opens one connection and prepares the insert statement.
    public init(databasePath: String) throws {
        connection = try SQLiteConnection(path: databasePath)
        insertStatement = try connection.prepare(ItemSQL.insert)
    }

    /// Binds and steps each item inside `BEGIN`/`COMMIT`, reading back its rowid.
    public func insert(_ items: inout [Item]) throws {
        try connection.execute("BEGIN")
        do {
            for index in items.indices {
                insertStatement.bindInsertArguments(of: items[index])
                try insertStatement.run()
                items[index].id = sqlite3_last_insert_rowid(connection.handle)
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            subscriber?.discardPending()
            throw error
        }
        subscriber?.deliverPending()
    }

    /// Installs the update hook.
    public func attachChangeSubscriber() throws {
        let subscriber = RowidSubscriber()
        subscriber.install(on: connection.handle)
        self.subscriber = subscriber
    }

    /// Rowids delivered to the subscriber after commits.
    public var notifiedInsertCount: Int {
        subscriber?.deliveredInsertCount ?? 0
    }
}
