import SQLiteStoreCore

/// The small model most suites use.
struct Item: StoreModel, Equatable {
    static let tableName = "item"
    var id: Int64?
    var title: String
    var score: Int?
    var rank: Double?
    var done: Bool = false

    /// The table that stores items.
    static let schema = """
        CREATE TABLE item(
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            score INTEGER,
            rank REAL,
            done INTEGER NOT NULL DEFAULT 0
        );
        """
}

extension Database {
    /// The number of rows in `table`.
    func count(_ table: String) throws -> Int {
        try fetchValue(Int.self, sql: "SELECT count(*) FROM \(SQLIdentifier.quote(table))") ?? -1
    }
}
