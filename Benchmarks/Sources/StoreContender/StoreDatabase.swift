import BenchmarkKit
import SQLiteStoreCore

/// How every contender of this library opens the benchmark database: the store's defaults,
/// but the writer's page cache at SQLite's default size, as every other contender has it
/// (see `BenchmarkSchema.synchronousPragma`).
public enum StoreDatabase {
    /// Opens the store at `path`.
    public static func open(atPath path: String) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.writerCacheSize = nil
        return try Store(path: path, configuration: configuration)
    }
}
