/// A sync with the server that did not complete: what the server refused, or why it could not
/// be reached. The local store is unchanged by the failed step: changes are acknowledged only
/// after the server stored them, and the pull cursor moves only with a committed apply.
public struct SyncServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the step failed.
    public enum Reason: Sendable, Hashable {
        /// The token is missing or not one the server issued (HTTP 401).
        case unauthorized
        /// The server could not read the request (HTTP 400): a client of another wire format.
        case malformed
        /// The push is larger than the server accepts (HTTP 413).
        case tooLarge
        /// The changes were made under another schema version than the server accepts (HTTP 409).
        case schemaMismatch
        /// A change is dated further ahead of the server's clock than it tolerates (HTTP 422):
        /// this device's clock is wrong; the push succeeds once the server's clock catches up.
        case clockSkew
        /// A change names a table or a column that the server does not sync (HTTP 422): this
        /// device's schema or its synced tables are not the server's.
        case notSynced
        /// The server failed or is overloaded (HTTP 5xx).
        case unavailable
        /// No answer: the connection failed, timed out or was cut.
        case unreachable
        /// An answer that is not the sync protocol's.
        case unexpectedResponse
    }

    /// Why the step failed.
    public let reason: Reason
    /// The HTTP status, when the server answered.
    public let status: Int?
    /// What happened, from the server when it said.
    public let message: String

    /// An error from its parts.
    public init(reason: Reason, status: Int? = nil, message: String) {
        self.reason = reason
        self.status = status
        self.message = message
    }

    /// Whether trying again later can succeed without a change on either side (a network or
    /// server failure, or this device's clock running ahead).
    public var isTransient: Bool {
        switch reason {
        case .unavailable, .unreachable, .clockSkew: true
        case .unauthorized, .malformed, .tooLarge, .schemaMismatch, .notSynced, .unexpectedResponse: false
        }
    }

    public var description: String {
        "sync: \(reason)\(status.map { " (HTTP \($0))" } ?? ""): \(message)"
    }
}
