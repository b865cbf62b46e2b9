/// A failed call into the SQLite C API, made by the harness or by the raw C contender.
public struct SQLiteError: Error, CustomStringConvertible {
    /// The (extended) SQLite result code.
    public let code: Int32
    /// SQLite's message for the failure.
    public let message: String

    /// Creates an error from a result code and a message.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message, for benchmark failure reports.
    public var description: String {
        "SQLite error \(code): \(message)"
    }
}
