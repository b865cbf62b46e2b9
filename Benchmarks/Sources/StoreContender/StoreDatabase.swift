import BenchmarkKit
import SQLiteStoreCore

/// How every contender of this library opens the benchmark database: the store's defaults,
/// but the writer's page cache at SQLite's default size and SQLite's automatic checkpoint on
/// the writer, as every other contender has them (see `BenchmarkSchema.synchronousPragma`).
public enum StoreDatabase {
    /// Opens the store at `path`.
    public static func open(atPath path: String) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.writerCacheSize = nil
        configuration.checkpointsInBackground = false
        return try Store(path: path, configuration: configuration)
    }
}
