// One import for the whole stack: the store, live results, view models and sync.
// Each module stays importable alone (`SQLiteStoreCore`, `SQLiteStoreResults`,
// `SQLiteStoreViewModels`, `SQLiteStoreSync`) for code that needs only part of it.
@_exported import SQLiteStoreCore
@_exported import SQLiteStoreResults
@_exported import SQLiteStoreSync
@_exported import SQLiteStoreSyncProtocol
@_exported import SQLiteStoreViewModels
