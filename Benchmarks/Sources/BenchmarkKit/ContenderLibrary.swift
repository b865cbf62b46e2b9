/// The libraries measured side by side; `rawValue` labels their results.
public enum ContenderLibrary: String, Sendable, CaseIterable {
    /// This repository's `Store` and `FetchedResults`, with a `Codable` model.
    case sqliteStore = "SQLiteStore"
    /// This repository's `Store` with a `@StoreModel` model, read and bound by column index.
    case sqliteStoreMacro = "SQLiteStoreMacro"
    /// This repository's `LiveValues`: every value in hand after each change, as GRDB's
    /// `ValueObservation` gives them, consumed off the main actor.
    case sqliteStoreValues = "SQLiteStoreValues"
    /// GRDB 7, used the idiomatic way.
    case grdb = "GRDB"
    /// The SQLite C API with hand-written binding and stepping: the floor.
    case rawC
}

/// A contender in one workload family: one library's implementation of that family's protocol.
public protocol Contender {
    /// The library this contender measures.
    static var library: ContenderLibrary { get }
}
