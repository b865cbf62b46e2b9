import Foundation

/// Benchmark databases: empty ones with the schema, and seeded ones holding the first
/// `rows` items of `ItemGenerator(seed: ItemGenerator.fixtureSeed)` with ids `1...rows`.
///
/// Seeded databases are built once with the C API into a cache under
/// `TemporaryDirectory.benchmarksRoot` (each benchmark runs in its own process) and copied
/// for every benchmark, so that no benchmark sees another's writes.
public enum Fixtures {
    /// Bump when the schema or the generator changes, so that stale caches are not reused.
    private static let cacheVersion = 1

    static var cacheDirectory: URL {
        TemporaryDirectory.benchmarksRoot.appendingPathComponent("fixtures-v\(cacheVersion)", isDirectory: true)
    }

    /// Creates a WAL database with the schema and no rows, named `name` inside `directory`.
    public static func makeEmptyDatabase(named name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path(for: name)
        try createSchema(at: path)
        return path
    }

    /// Copies the seeded database of `rows` rows, named `name`, into `directory`.
    public static func makeSeededDatabase(rows: Int, named name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path(for: name)
        try FileManager.default.copyItem(atPath: try seededTemplate(rows: rows), toPath: path)
        return path
    }

    static func seededTemplate(rows: Int) throws -> String {
        let template = cacheDirectory.appendingPathComponent("items-\(rows).sqlite").path
        guard !FileManager.default.fileExists(atPath: template) else { return template }
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        let partial = template + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.removeItem(atPath: partial)
        try fillDatabase(at: partial, rows: rows)
        try FileManager.default.moveItem(atPath: partial, toPath: template)
        return template
    }

    private static func createSchema(at path: String) throws {
        let connection = try SQLiteConnection(path: path)
        try connection.execute(BenchmarkSchema.journalModePragma)
        for statement in BenchmarkSchema.createStatements {
            try connection.execute(statement)
        }
    }

    private static func fillDatabase(at path: String, rows: Int) throws {
        try createSchema(at: path)
        let connection = try SQLiteConnection(path: path)
        let insert = try connection.prepare(ItemSQL.insert)
        var generator = ItemGenerator()
        try connection.execute("BEGIN")
        for _ in 0..<rows {
            insert.bindInsertArguments(of: generator.next())
            try insert.run()
        }
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
