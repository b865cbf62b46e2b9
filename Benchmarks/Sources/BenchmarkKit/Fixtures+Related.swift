import Foundation

extension Fixtures {
    /// How many items each list of a related database holds.
    public static let itemsPerList = 100

    /// The name list `id` has in a related database (`list 000042`): names sort as ids do.
    public static func listName(_ id: Int) -> String { String(format: "list %06d", id) }

    /// Copies the related database of `rows` items into `directory`: the seeded items, each
    /// pointing through `list_id` (indexed) at one of `rows / 100` lists of 100 consecutive items.
    public static func makeRelatedDatabase(rows: Int, named name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path(for: name)
        try FileManager.default.copyItem(atPath: try relatedTemplate(rows: rows), toPath: path)
        return path
    }

    private static func relatedTemplate(rows: Int) throws -> String {
        let template = cacheDirectory.appendingPathComponent("related-\(rows).sqlite").path
        guard !FileManager.default.fileExists(atPath: template) else { return template }
        let partial = template + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.removeItem(atPath: partial)
        try FileManager.default.copyItem(atPath: try seededTemplate(rows: rows), toPath: partial)
        try addLists(at: partial, rows: rows)
        try FileManager.default.moveItem(atPath: partial, toPath: template)
        return template
    }

    private static func addLists(at path: String, rows: Int) throws {
        let connection = try SQLiteConnection(path: path)
        try connection.execute("BEGIN")
        try connection.execute("CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try connection.execute(
            """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(rows / itemsPerList))
            INSERT INTO list(id, name) SELECT x, 'list ' || printf('%06d', x) FROM n
            """)
        try connection.execute("ALTER TABLE item ADD COLUMN list_id INTEGER REFERENCES list(id)")
        try connection.execute("UPDATE item SET list_id = (id - 1) / \(itemsPerList) + 1")
        try connection.execute("CREATE INDEX item_list ON item(list_id)")
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
