/// Identifies one stored row across the library: its table and its rowid.
public struct ObjectID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The table's name.
    public let table: String
    /// The row's rowid (its integer primary key).
    public let rowID: Int64

    /// Identifies row `rowID` of `table`.
    public init(table: String, rowID: Int64) {
        self.table = table
        self.rowID = rowID
    }

    /// Orders by table name, then rowid.
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.table, lhs.rowID) < (rhs.table, rhs.rowID)
    }

    public var description: String { "\(table)#\(rowID)" }
}
