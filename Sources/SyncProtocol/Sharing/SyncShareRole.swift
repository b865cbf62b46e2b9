/// What a member of a share may do with its rows.
public enum SyncShareRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// Receives the share's rows; the server refuses its changes to them.
    case reader
    /// Receives the share's rows and changes them, adds rows under the root and deletes them.
    case writer
}
