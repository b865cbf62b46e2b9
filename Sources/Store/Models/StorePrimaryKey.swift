import Foundation

/// A type that can be a model's primary key: `Int64?` (an alias of the rowid that SQLite
/// assigns on insert), `Int64`, `UUID` or `String`.
///
/// Whatever the key, the table is a rowid table: the library identifies rows by rowid
/// (`ObjectID`), and a key that is not the rowid is an ordinary `PRIMARY KEY` column beside it.
public protocol StorePrimaryKey: DatabaseValueConvertible, Hashable {
    /// The key without optionality: what `fetchOne(_:id:)` and `delete(_:id:)` take.
    associatedtype Value: DatabaseValueConvertible & Hashable & Sendable

    /// Whether the key column is an alias of the rowid (`INTEGER PRIMARY KEY`).
    static var isRowIDAlias: Bool { get }

    /// The key once SQLite inserted the row as `rowID`: a rowid alias takes it, other keys stay.
    func inserted(rowID: Int64) -> Self

    /// The key's value, or `nil` while SQLite has yet to assign it.
    var primaryKeyValue: Value? { get }

    /// A new key for a draft inserted without one: a random UUID for a `UUID` key; `nil` for
    /// a rowid key, which SQLite assigns, and for a `String` key, which is the app's to choose.
    static func newKey() -> Value?
}

extension StorePrimaryKey {
    /// `nil`: SQLite assigns a rowid key, and the app chooses any other.
    public static func newKey() -> Value? { nil }
}

extension Optional: StorePrimaryKey where Wrapped == Int64 {
    /// `true`: an `Int64?` key is the rowid, `nil` until the row is inserted.
    public static var isRowIDAlias: Bool { true }
    /// The rowid SQLite assigned.
    public func inserted(rowID: Int64) -> Int64? { rowID }
    /// The key, or `nil` before the insert.
    public var primaryKeyValue: Int64? { self }
}

extension Int64: StorePrimaryKey {
    /// `true`: an `Int64` key is the rowid, chosen by the app.
    public static var isRowIDAlias: Bool { true }
    /// The rowid SQLite stored.
    public func inserted(rowID: Int64) -> Int64 { rowID }
    /// The key itself.
    public var primaryKeyValue: Int64? { self }
}

extension UUID: StorePrimaryKey {
    /// `false`: a UUID key sits beside the rowid.
    public static var isRowIDAlias: Bool { false }
    /// The key itself: inserting does not change it.
    public func inserted(rowID: Int64) -> UUID { self }
    /// The key itself.
    public var primaryKeyValue: UUID? { self }
    /// A random UUID.
    public static func newKey() -> UUID? { UUID() }
}

extension String: StorePrimaryKey {
    /// `false`: a text key sits beside the rowid.
    public static var isRowIDAlias: Bool { false }
    /// The key itself: inserting does not change it.
    public func inserted(rowID: Int64) -> String { self }
    /// The key itself.
    public var primaryKeyValue: String? { self }
}
