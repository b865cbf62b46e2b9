import SQLiteStoreCore

/// The model a watched table's fetched-results controller is typed with: any rowid table
/// fits, since the controller only tracks rowids and sort keys for `watch`.
///
/// The controller never materializes it (the request has a batch size and `watch` never asks
/// for objects): the shown values are read by rowid instead (`WatchResults`), because a model
/// is read with `SELECT *`, which carries no rowid unless the table has an `INTEGER PRIMARY KEY`.
struct WatchRow: StoreModel {
    /// Unused: requests name the watched table with `StoreRequest(tableName:)`.
    static let tableName = ""
    var id: Int64?
}
