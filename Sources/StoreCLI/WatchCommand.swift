import ArgumentParser
import Foundation
import SQLiteStoreCore

/// `store watch`: a query's results, live, as other processes write.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show a table's rows live, and each change to them, as other programs write.",
        discussion: """
            Rows are identified by rowid; any table with rowids works, no Swift model needed. \
            The database is only read, never written. Runs until SIGINT or SIGTERM (exit 0), \
            or with --json until standard input closes.

            Text: a table of the results grouped by section, redrawn after each change; \
            changed rows are marked (+ inserted, > moved, * updated, # moved and updated) and \
            a status line gives rows, sections and when the last change arrived.

            --json: one JSON object per line. First \
            {"type":"initial","sections":[{"name":S,"ids":[rowid,…]},…]} (name is null \
            without --section-by), then for each change \
            {"type":"change","sectionDeletes":[i,…],"sectionInserts":[{"at":i,"name":S},…],\
            "deletes":[[s,r],…],"inserts":[{"at":[s,r],"id":rowid},…],\
            "moves":[{"from":[s,r],"to":[s,r]},…],"updates":[[s,r],…]}. sectionDeletes, \
            deletes, updates and move sources are positions in the previous results; \
            sectionInserts, inserts and move destinations in the new ones. Inserted sections \
            start empty and their rows are listed in inserts. To apply a change: remove the \
            deleted sections, the deleted rows and the moved rows, then insert the new \
            sections and then the inserted and moved rows, in ascending order.

            --order-by and --section-by also take a column of the row a foreign key of the \
            watched table refers to, as PREFIX.COLUMN: list.name is the name of the item's \
            list. PREFIX is the table referred to by exactly one foreign key of the watched \
            table, or the foreign-key column itself (list_id.name, needed when several foreign \
            keys refer to the same table); the schema's foreign keys (PRAGMA foreign_key_list) \
            resolve it. Rows whose foreign key is NULL or refers to no row get NULL. A change \
            of the related row (a list renamed) moves its rows and sections like any other \
            change. An unknown or ambiguous PREFIX exits 2 and lists the candidates.

            --where is one SQL condition on the watched table: it may use the table's columns, \
            functions and subqueries on the same table, but reading any other table or view is \
            refused (exit 2). SIGINT or SIGTERM interrupt a running query at once.

            Exit codes: 0 when stopped, 2 for a table, column or foreign key that does not \
            exist or a condition that does not parse, 3 when the file is missing or not a database.

            Example: store watch --database app.sqlite --table item --where "done = 0" \
            --order-by category,position --section-by category --columns title,due_date

            Example: store watch --database app.sqlite --table item --order-by list.name,title \
            --section-by list.name
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("The table to watch.", valueName: "table"))
    var table: String

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp("An SQL condition rows must meet; it may read only the watched table.", valueName: "sql"))
    var condition: String?

    @Option(
        name: .customLong("order-by"),
        help: ArgumentHelp(
            "The sort order: columns (or prefix.column through a foreign key), each optionally followed by :asc or :desc.",
            valueName: "column[:desc],…"))
    var orderBy: String?

    @Option(
        name: .customLong("section-by"),
        help: ArgumentHelp(
            "The column whose values group rows into sections (or prefix.column through a foreign key).", valueName: "column"))
    var sectionBy: String?

    @Option(help: ArgumentHelp("The columns to show (all by default).", valueName: "a,b,c"))
    var columns: String?

    func run() async throws {
        let stop = WatchStop()
        do {
            try await watch(until: stop)
        } catch  where stop.isStopping || error is CancellationError {
            return  // a stop asked for, and what it interrupted: exit 0
        } catch {
            let failure = CommandFailure(error)
            if options.json {
                try? writeToStandardOutput(WatchJSONLine.error(failure) + "\n")
            }
            CommandOutput.printError("error: \(failure.report.message)")
            throw ExitCode(failure.status.rawValue)
        }
    }

    private func watch(until stop: WatchStop) async throws {
        let request = try WatchRequest(table: table, columns: columns, condition: condition, orderBy: orderBy, sectionBy: sectionBy)
        let store = try WatchDatabase.open(path: options.database)
        // Closed before the process exits, so that the -wal and -shm files it made are gone.
        defer { try? store.close() }
        stop.interrupt(store)
        try stop.check()
        let query = try await store.read { db in try request.validated(in: db) }
        let session = Task { [json = options.json] in
            try await WatchSession(store: store, query: query, json: json).run(afterInitialResults: {
                if json { stop.watchStandardInput() }
            })
        }
        stop.cancel(session)
        try await session.value
    }
}
