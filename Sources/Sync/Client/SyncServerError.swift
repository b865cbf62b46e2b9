import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// A sync with the server that did not complete: what the server refused, or why it could not
/// be reached. The local store is unchanged by the failed step: changes are acknowledged only
/// after the server stored them, and the pull cursor moves only with a committed apply.
public struct SyncServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the step failed: the code the server answered (`.unauthorized` for HTTP 401,
    /// `.malformed` 400, `.tooLarge` 413, `.upgradeRequired` and `.forkedDevice` 409,
    /// `.clockSkew` and `.notSynced` 422, `.deviceForgotten` 410, `.forbidden` 403, `.unavailable`
    /// 5xx), or the
    /// client's own finding:
    /// `.unreachable` when no answer came, `.unexpectedResponse` for an answer that is not the
    /// sync protocol's, `.forkedDevice` (without a status) for a pull answer naming a change of
    /// this device that its database never numbered.
    public let reason: SyncWireError.Code
    /// The HTTP status, when the server answered.
    public let status: Int?
    /// What happened, from the server when it said.
    public let message: String

    /// An error from its parts.
    public init(reason: SyncWireError.Code, status: Int? = nil, message: String) {
        self.reason = reason
        self.status = status
        self.message = message
    }

    /// Whether trying again later can succeed without a change on either side (a network or
    /// server failure, or this device's clock running ahead: the push succeeds once the
    /// server's clock catches up).
    public var isTransient: Bool {
        switch reason {
        case .unavailable, .unreachable, .clockSkew: true
        case .unauthorized, .malformed, .tooLarge, .upgradeRequired, .notSynced, .forkedDevice, .deviceForgotten, .forbidden,
            .unexpectedResponse:
            false
        }
    }

    public var description: String {
        "sync: \(reason.rawValue)\(status.map { " (HTTP \($0))" } ?? ""): \(message)"
    }
}
