import SQLiteStoreCore

/// Where `ResultIndex.replace` found the changed rows before the change and where it put them:
/// what the change set needs, so that it does not look every row up again in both results.
struct ReplacedRows: Sendable {
    /// A changed row's position among all rows of one side, and its section key value
    /// (`.null` when the results are not sectioned).
    struct Row: Sendable {
        let rowID: Int64
        let position: Int
        let sectionValue: DatabaseValue
    }

    /// The changed rows that were in the results, by ascending position before the change.
    var before: [Row] = []
    /// The changed rows that are in the results, by ascending position after the change.
    var after: [Row] = []
}
