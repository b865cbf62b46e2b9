import ArgumentParser
import SQLiteStoreCore

/// `store schema`: prints the database's schema as SQL.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the schema (tables, indexes, views, triggers) as SQL.",
        discussion: """
            The statements are ordered so that they replay into an empty database: tables and \
            indexes by name, views in creation order, then triggers. SQLite's internal tables \
            and the migration ledger are left out.

            Example: store schema --database app.sqlite > schema.sql
            """
    )

    @OptionGroup var options: StoreOptions

    func run() throws {
        let output = CommandOutput(options)
        var report = SchemaReport()
        let failure = CommandFailure.catching {
            let objects = try options.withStoreForReading(ifMissing: .fail) { store in try store.read { db in try db.schema() } }
            report = SchemaReport(objects)
            if !objects.isEmpty { output.say(report.sql) }
        }
        try output.finish("schema", body: report, failure: failure)
    }
}

/// The JSON fields of `schema`.
struct SchemaReport: Encodable {
    /// One schema object.
    struct Statement: Encodable {
        /// `table`, `index`, `view` or `trigger`.
        let type: String
        let name: String
        /// The table an index or trigger belongs to.
        let table: String
        let sql: String
    }

    /// The objects, in replay order.
    var statements: [Statement] = []
    /// The whole schema as one SQL text, each statement ending with a semicolon.
    var sql = ""

    init() {}

    init(_ objects: [SchemaObject]) {
        statements = objects.map { Statement(type: $0.type, name: $0.name, table: $0.tableName, sql: $0.sql) }
        sql = objects.map { $0.sql + ";" }.joined(separator: "\n\n")
    }
}
