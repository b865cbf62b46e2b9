import BenchmarkKit
import GRDB

/// The record conformances a GRDB user writes for a Codable model.
extension Item: FetchableRecord, MutablePersistableRecord {
    /// Stores the rowid GRDB reports after an insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// Typed columns for the query interface.
enum ItemColumn {
    static let score = Column("score")
    static let flag = Column("flag")
    static let category = Column("category")
    static let title = Column("title")
}
