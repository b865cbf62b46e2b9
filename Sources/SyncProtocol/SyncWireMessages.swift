/// A device's push: changes made under one schema version, oldest first.
public struct SyncPushRequest: Sendable, Hashable, Codable {
    /// The wire format (``SyncWireFormat/version``).
    public var format: Int
    /// The migration version of the schema the changes were made under.
    public var schemaVersion: Int64
    /// The changes.
    public var changes: [SyncWireChange]
    /// The rows of the changes that the device holds through a share (another account's
    /// data), each with its share: the server checks such a change against the member's rights
    /// in that share, even once the account has left it.
    public var shared: [SyncSharedRow]

    /// A push in this build's format.
    public init(schemaVersion: Int64, changes: [SyncWireChange], shared: [SyncSharedRow] = []) {
        self.format = SyncWireFormat.version
        self.schemaVersion = schemaVersion
        self.changes = changes
        self.shared = shared
    }

    private enum CodingKeys: String, CodingKey { case format, schemaVersion, changes, shared }

    /// Reads a push; one without shared rows (a device that holds none) has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        schemaVersion = try container.decode(Int64.self, forKey: .schemaVersion)
        changes = try container.decode([SyncWireChange].self, forKey: .changes)
        shared = try container.decodeIfPresent([SyncSharedRow].self, forKey: .shared) ?? []
    }
}

/// The server's answer to a push: every change is stored (now or before), or refused.
public struct SyncPushResponse: Sendable, Hashable, Codable {
    /// The wire format.
    public var format: Int
    /// How many of the pushed changes were new (the others had been stored before, or refused).
    public var stored: Int
    /// The changes the server refused (a row of a share the account may not write), stored
    /// nowhere; empty on a server without sharing.
    public var refused: [SyncRefusal]
    /// The refused rows as the server holds them for the device, which takes them instead of
    /// its own.
    public var rows: [SyncRowState]
    /// The rows the push stored in another account's data (a row added to a share), each with
    /// its share.
    public var shared: [SyncSharedRow]

    /// An answer in this build's format.
    public init(stored: Int, refused: [SyncRefusal] = [], rows: [SyncRowState] = [], shared: [SyncSharedRow] = []) {
        self.format = SyncWireFormat.version
        self.stored = stored
        self.refused = refused
        self.rows = rows
        self.shared = shared
    }

    private enum CodingKeys: String, CodingKey { case format, stored, refused, rows, shared }

    /// Reads an answer; one without refusals or rows (a server without sharing) has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        stored = try container.decode(Int.self, forKey: .stored)
        refused = try container.decodeIfPresent([SyncRefusal].self, forKey: .refused) ?? []
        rows = try container.decodeIfPresent([SyncRowState].self, forKey: .rows) ?? []
        shared = try container.decodeIfPresent([SyncSharedRow].self, forKey: .shared) ?? []
    }
}

/// The server's answer to a pull: other devices' changes after the cursor, in server order.
public struct SyncPullResponse: Sendable, Hashable, Codable {
    /// The wire format.
    public var format: Int
    /// The schema version the changes were made under.
    public var schemaVersion: Int64
    /// The changes, oldest first.
    public var changes: [SyncWireChange]
    /// The cursor to pull from next, once these changes are applied.
    public var cursor: Int64
    /// Whether more changes wait after `cursor`.
    public var more: Bool
    /// The highest sequence among the pulling device's own changes that this answer passes over
    /// (left out of `changes`), `nil` for none (or a pull naming no device). Each was given its
    /// sequence on that device before it was pushed, so before the answer: a database whose
    /// changes have lower sequences is a copy, which never pulls what its original made since.
    public var deviceSequence: Int64?
    /// The rows of other accounts' data that `changes` touch, each with the share it reaches
    /// the device through.
    public var shared: [SyncSharedRow] = []
    /// The shares the account lost since the cursor: the device removes their rows.
    public var revoked: [String] = []
    /// The shares the account joined since the cursor: the device reads their rows
    /// (``SyncWireFormat/sharedPath``).
    public var granted: [String] = []
    /// Rows that moved into or out of the account's shares since the cursor, as the device
    /// must now hold them (with no changes: not at all).
    public var rows: [SyncRowState] = []

    /// An answer in this build's format.
    public init(schemaVersion: Int64, changes: [SyncWireChange], cursor: Int64, more: Bool, deviceSequence: Int64? = nil) {
        self.format = SyncWireFormat.version
        self.schemaVersion = schemaVersion
        self.changes = changes
        self.cursor = cursor
        self.more = more
        self.deviceSequence = deviceSequence
    }

    private enum CodingKeys: String, CodingKey {
        case format, schemaVersion, changes, cursor, more, deviceSequence, shared, revoked, granted, rows
    }

    /// Reads an answer; one without sharing's members (a server without sharing) has none of them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        schemaVersion = try container.decode(Int64.self, forKey: .schemaVersion)
        changes = try container.decode([SyncWireChange].self, forKey: .changes)
        cursor = try container.decode(Int64.self, forKey: .cursor)
        more = try container.decode(Bool.self, forKey: .more)
        deviceSequence = try container.decodeIfPresent(Int64.self, forKey: .deviceSequence)
        shared = try container.decodeIfPresent([SyncSharedRow].self, forKey: .shared) ?? []
        revoked = try container.decodeIfPresent([String].self, forKey: .revoked) ?? []
        granted = try container.decodeIfPresent([String].self, forKey: .granted) ?? []
        rows = try container.decodeIfPresent([SyncRowState].self, forKey: .rows) ?? []
    }
}

/// The body of every error the server answers: a stable code for programs and a message for people.
///
/// A client reports every failed step with the same codes (`SyncServerError.reason` in the
/// library), adding two of its own: ``Code/unreachable`` and ``Code/unexpectedResponse``.
public struct SyncWireError: Sendable, Hashable, Codable, Error {
    /// Why the request failed.
    public enum Code: String, Sendable, Hashable, Codable {
        /// No token, or a token the server does not know (HTTP 401).
        case unauthorized
        /// The body or the query is not the format's (HTTP 400).
        case malformed
        /// The body is larger than the server accepts (HTTP 413).
        case tooLarge
        /// The device's schema version cannot sync with the server's (HTTP 409): it is newer than
        /// the server's (upgrade the server), or a migration since it changed synced tables in a
        /// way older apps cannot follow (upgrade the app). Nothing was stored; the device keeps
        /// its data and its unpushed changes.
        case upgradeRequired
        /// A change's clock is further ahead of the server's than it tolerates (HTTP 422).
        case clockSkew
        /// A change names a table or a column that the server's schema does not sync (HTTP 422).
        case notSynced
        /// The push gives a change id (device and sequence) that the server holds for another
        /// change: the database is a copy of another device's, restored from a backup or copied to
        /// another machine, and both went on writing under one device id (HTTP 409). A client
        /// also finds it on its own when a pull answer's ``SyncPullResponse/deviceSequence`` is
        /// higher than any sequence it gave a change: a copy that only reads.
        case forkedDevice
        /// The server no longer knows the device, which was not seen for longer than it keeps
        /// devices, and the changes it has not pulled may be gone (HTTP 410): it reads the
        /// snapshot again, keeping its unpushed changes.
        case deviceForgotten
        /// The account may not do this with the share or root it names, or it names one the
        /// account cannot see (HTTP 403): the answer never says whether it exists.
        case forbidden
        /// The server failed (HTTP 500 or 503).
        case unavailable
        /// No answer: the connection failed, timed out or was cut. A client's finding, which a
        /// server never answers.
        case unreachable
        /// An answer that is not the sync protocol's. A client's finding, which a server never answers.
        case unexpectedResponse
    }

    /// Why the request failed.
    public var code: Code
    /// What happened, for people.
    public var message: String

    /// An error from its parts.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
}
