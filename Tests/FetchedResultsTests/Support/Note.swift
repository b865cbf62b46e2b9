import SQLiteStoreCore

/// The model the FetchedResults suites store: a title, a nullable group (for sections) and
/// a nullable score with many ties (for sort orders).
struct Note: StoreModel, Equatable {
    static let tableName = "note"
    var id: Int64?
    var title: String
    var grp: String?
    var score: Int?

    static let schema = """
        CREATE TABLE note(
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            grp TEXT,
            score INTEGER
        );
        """

    /// The object ID of the note with rowid `rowID`.
    static func id(_ rowID: Int64) -> ObjectID { ObjectID(table: tableName, rowID: rowID) }
}
