// The wire format compares names, keys and device ids by their UTF-8 bytes, as SQLite does;
// what imports it gets those comparisons (`hasSameUTF8(as:)`, `utf8Precedes(_:)`) with it.
@_exported import SQLiteStoreUTF8
