/// Something in a migration file that is legal but probably not what its author meant,
/// such as `PRAGMA foreign_keys` inside a transaction, where SQLite ignores it.
public struct MigrationWarning: Sendable, Hashable, CustomStringConvertible {
    /// The line of the file the statement starts on (1-based).
    public let line: Int
    /// What is wrong and what to do instead.
    public let message: String

    /// `line N: message`.
    public var description: String { "line \(line): \(message)" }
}
