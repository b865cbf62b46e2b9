import Foundation
import SQLiteStoreCore
import SQLiteStoreMacros

/// The macro model of the model suites: typed queries, writes by column.
@StoreModel
struct Todo: Equatable {
    var id: Int64?
    var title: String
    @StoreColumn("is_done") var done: Bool
    var priority: Int?
    var tag: String?

    static let schema = """
        CREATE TABLE todo(
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, is_done INTEGER NOT NULL DEFAULT 0,
            priority INTEGER, tag TEXT
        );
        """
}

/// A model whose key is a UUID, in a rowid table.
@StoreModel(table: "document")
struct Document: Equatable {
    var id: UUID
    var name: String
    var slug: String

    static let schema = "CREATE TABLE document(id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, slug TEXT NOT NULL UNIQUE);"
}

/// A model whose key is a String marked @PrimaryKey.
@StoreModel
struct Country: Equatable {
    @PrimaryKey var code: String
    var name: String

    static let schema = "CREATE TABLE country(code TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL);"
}
