import SQLiteStoreCore
import Testing

/// The Swift API snippet of the Migrations article (SQLiteStoreCore.docc), verbatim, on
/// the example schema in `Migrations/`: edit both together.
@Suite struct MigrationsArticleTests {
    @Test func swiftAPISnippetRuns() throws {
        let directory = try TemporaryDirectory()
        let databasePath = directory.path("app.sqlite")
        let migrationsFolder = exampleMigrationsFolder
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let store = try Store(path: databasePath)
        var migrator = try Migrator(folder: migrationsFolder)  // NNNN_name.sql files
        try migrator.add(
            Migration(version: 100, name: "backfill_positions") { db in
                try db.execute(sql: "UPDATE item SET position = id WHERE position = 0")
            } down: { db in
                try db.execute(sql: "UPDATE item SET position = 0")
            })

        try migrator.migrate(store, to: 3, options: [.allowOutOfOrder]) { step in
            print("applied", step.migration.version, step.duration)
        }
        try migrator.migrate(store)  // all pending, in order
        let status = try migrator.status(store)  // MigrationStatus
        print(status.currentVersion as Any, status.entries(.pending).map(\.version))
        let plan = try migrator.pendingMigrations(store)  // what migrate would do; changes nothing
        try migrator.rollback(store)  // the newest one
        try migrator.rollback(store, to: 0)  // all of them
        let schema = try store.read { db in try db.schema() }  // [SchemaObject], replayable order

        #expect(printed.count == 4)
        #expect(
            printed.prefix(3).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
                == ["applied 1", "applied 2", "applied 3"])
        #expect(printed.last == "Optional(100) []")
        #expect(plan.isEmpty)
        #expect(schema.allSatisfy { $0.name == "store_migrations" } || schema.isEmpty, "every migration was undone")
    }
}
