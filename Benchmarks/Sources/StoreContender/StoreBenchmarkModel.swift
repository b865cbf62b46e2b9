import BenchmarkKit
import SQLiteStoreCore

/// A model the SQLiteStore contenders read and write: `Item` through `Codable`, or the
/// `@StoreModel` `MacroItem` by column index. Each is its own contender, labelled `library`.
public protocol StoreBenchmarkModel: StoreModel, BenchmarkModel {
    /// The label of the contender that uses this model.
    static var library: ContenderLibrary { get }
    /// `fetchAll`'s request: every row by score.
    static var allByScore: StoreRequest<Self> { get }

    /// The models `request` selects, in one `read`.
    static func fetch(_ request: StoreRequest<Self>, from store: Store) throws -> [Self]

    /// Inserts `models` in one `write`, each with `db.insert(&model)`.
    static func insert(_ models: inout [Self], into store: Store) throws
}

/// The contenders' hot loops, reached through the model's conformance: its witness calls them
/// specialized for the model, as a user's code naming its model is, rather than through the
/// generic contender classes.
extension StoreBenchmarkModel {
    /// `store.read { db in try db.fetch(request) }`.
    public static func fetch(_ request: StoreRequest<Self>, from store: Store) throws -> [Self] {
        try store.read { db in try db.fetch(request) }
    }

    /// `store.write { db in … try db.insert(&models[index]) … }`.
    public static func insert(_ models: inout [Self], into store: Store) throws {
        try store.write { db in
            for index in models.indices {
                try db.insert(&models[index])
            }
        }
    }
}

extension Item: StoreBenchmarkModel {
    /// `SQLiteStore`.
    public static var library: ContenderLibrary { .sqliteStore }
    /// `ItemRequests.allByScore`, by column name.
    public static var allByScore: StoreRequest<Item> { ItemRequests.allByScore }
}

extension MacroItem: StoreBenchmarkModel {
    /// `SQLiteStoreMacro`.
    public static var library: ContenderLibrary { .sqliteStoreMacro }
    /// The same request, typed.
    public static var allByScore: StoreRequest<MacroItem> { byScore }
}
