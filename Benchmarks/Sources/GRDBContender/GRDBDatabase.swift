import BenchmarkKit
import GRDB

/// How every GRDB contender opens the benchmark database: a `DatabasePool` (WAL) whose
/// connections all use `synchronous = NORMAL`, like the other contenders.
enum GRDBDatabase {
    static func openPool(atPath path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: BenchmarkSchema.synchronousPragma)
        }
        return try DatabasePool(path: path, configuration: configuration)
    }
}
