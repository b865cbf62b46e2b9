// One import for the whole stack: the store, live results and view models.
// Each module stays importable alone (`SQLiteStoreCore`, `SQLiteStoreResults`,
// `SQLiteStoreViewModels`) for code that needs only part of it.
@_exported import SQLiteStoreCore
@_exported import SQLiteStoreResults
@_exported import SQLiteStoreViewModels
