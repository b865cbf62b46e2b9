import Foundation
import SQLiteStoreCore

/// What the user asked `store watch` for, before it is checked against the database.
struct WatchRequest: Sendable {
    let table: String
    let columns: [String]?
    let condition: String?
    let orderBy: [SortPath]
    let sectionBy: String?

    /// One key of `--order-by` as typed: a column or a path through a foreign key, and its direction.
    struct SortPath: Sendable {
        let path: String
        let isAscending: Bool
    }

    /// Parses the comma-separated `--columns` and `--order-by COLUMN[:asc|:desc],…` values; a
    /// sort or section column may be read through a foreign key (`list.name`, see `WatchColumnPath`).
    init(table: String, columns: String?, condition: String?, orderBy: String?, sectionBy: String?) throws {
        self.table = table
        self.columns = try columns.map { try Self.names(in: $0, option: "--columns") }
        self.condition = condition
        self.orderBy = try orderBy.map { try Self.names(in: $0, option: "--order-by").map(Self.sortKey) } ?? []
        self.sectionBy = sectionBy
    }

    private static func names(in list: String, option: String) throws -> [String] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.contains(where: \.isEmpty) else {
            throw CommandFailure(status: .usage, kind: "usage", message: "\(option) has an empty column name in '\(list)'")
        }
        return names
    }

    private static func sortKey(_ text: String) throws -> SortPath {
        guard let colon = text.lastIndex(of: ":") else { return .init(path: text, isAscending: true) }
        let path = String(text[..<colon])
        switch text[text.index(after: colon)...].lowercased() {
        case "asc": return .init(path: path, isAscending: true)
        case "desc": return .init(path: path, isAscending: false)
        default:
            throw CommandFailure(
                status: .usage, kind: "usage",
                message: "--order-by '\(text)': the direction after ':' must be asc or desc")
        }
    }

    /// The query, once the table, the columns and the condition are known to exist and parse.
    func validated(in db: Database) throws -> WatchQuery {
        let table = try Self.tableName(table, in: db)
        let tableColumns = try db.fetchRows(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
            .compactMap { $0[0].textValue }
        func column(_ name: String, option: String) throws -> Column {
            try WatchColumnPath.column(name, of: table, tableColumns: tableColumns, option: option, in: db)
        }
        func ownColumn(_ name: String) throws -> String {
            guard let found = WatchColumnPath.ownColumn(name, tableColumns: tableColumns) else {
                throw CommandFailure(status: .usage, kind: "usage", message: "--columns: table \(table) has no column '\(name)'")
            }
            return found
        }
        let section = try sectionBy.map { try column($0, option: "--section-by") }
        var sortKeys = try orderBy.map {
            WatchQuery.SortKey(column: try column($0.path, option: "--order-by"), isAscending: $0.isAscending)
        }
        if let section, sortKeys.first?.column != section {
            sortKeys.insert(.init(column: section, isAscending: true), at: 0)
        }
        let query = WatchQuery(
            table: table, columns: try (columns ?? tableColumns).map { try ownColumn($0) },
            condition: condition, sortKeys: sortKeys, sectionColumn: section)
        try Self.checkParses(query, in: db)
        return query
    }

    /// The table's name as the schema spells it; views and tables without rowids cannot be watched.
    private static func tableName(_ name: String, in db: Database) throws -> String {
        let rows = try db.fetchRows(
            sql: "SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main' AND name = ? COLLATE NOCASE",
            arguments: [name])
        guard let row = rows.first, let found = row[0].textValue else {
            throw CommandFailure(status: .usage, kind: "usage", message: "--table: the database has no table '\(name)'")
        }
        guard row[1].textValue == "table", row[2] == .integer(0) else {
            throw CommandFailure(
                status: .usage, kind: "usage",
                message:
                    "--table: '\(found)' is a \(row[2] == .integer(1) ? "WITHOUT ROWID table" : row[1].textValue ?? "schema object"); watch needs a table with rowids"
            )
        }
        return found
    }

    /// `SQLITE_AUTH`: the authorizer refused a statement.
    private static let authorizationDenied = ResultCode(rawValue: 23)

    /// Prepares the condition of the query the fetched-results controller runs, without
    /// running it: a condition that does not parse, holds parameters, would write, or reads
    /// another table than the watched one (SQLite's authorizer sees every table a statement
    /// reads) is refused. The sort and section columns read through foreign keys are the
    /// command's own subqueries, checked against the schema already, so they stay out of it.
    private static func checkParses(_ query: WatchQuery, in db: Database) throws {
        let statement: Statement
        do {
            statement = try db.withReads(limitedTo: query.table) { try db.prepare(sql: query.conditionRequest.sql(selecting: "rowid").sql) }
        } catch let error as StoreError {
            let reason =
                switch error.code {
                case .misuse: "must be one condition, not several statements"
                case Self.authorizationDenied: "may read only the watched table \(query.table) (\(error.message))"
                default: error.message
                }
            throw CommandFailure(status: .usage, kind: "usage", message: "--where '\(query.condition ?? "")': \(reason)", storeError: error)
        }
        guard statement.parameterCount == 0 else {
            throw CommandFailure(
                status: .usage, kind: "usage",
                message: "--where '\(query.condition ?? "")': parameters (?) cannot be bound here; write the values into the condition")
        }
        guard statement.isReadOnly else {
            throw CommandFailure(
                status: .usage, kind: "usage", message: "--where '\(query.condition ?? "")': the condition would write to the database")
        }
    }
}
