import Foundation

/// Why a `ChangeSet` cannot be applied to, or converted for, given results.
public enum ChangeSetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The part of a change set that an error is about.
    public enum Role: String, Sendable, Hashable {
        /// An entry of `sectionDeletes`.
        case sectionDelete = "section delete"
        /// An entry of `sectionInserts`.
        case sectionInsert = "section insert"
        /// An entry of `deletes`.
        case delete
        /// An entry of `inserts`.
        case insert
        /// The `from` of a move.
        case moveSource = "move source"
        /// The `to` of a move.
        case moveDestination = "move destination"
        /// An entry of `updates`.
        case update
    }

    /// A section index out of bounds (old results for deletes, new for inserts), or listed twice.
    case invalidSection(Int, Role)
    /// An index path out of bounds for its side, inside a deleted or inserted
    /// section, or listed twice among the removals or among the insertions.
    case invalidIndexPath(IndexPath, Role)
    /// The new results do not have the shape the change set produces:
    /// a different row count in `section`, or a different section count when `section` is `nil`.
    case countMismatch(section: Int?, expected: Int, actual: Int)
    /// A conversion for flat lists met section changes or a section other than 0.
    case notSingleSection

    /// A readable explanation.
    public var description: String {
        switch self {
        case .invalidSection(let index, let role):
            "invalid \(role.rawValue) of section \(index)"
        case .invalidIndexPath(let path, let role):
            "invalid \(role.rawValue) at \(path.listDescription)"
        case .countMismatch(let section?, let expected, let actual):
            "section \(section) of the new results has \(actual) rows, the change set makes \(expected)"
        case .countMismatch(nil, let expected, let actual):
            "the new results have \(actual) sections, the change set makes \(expected)"
        case .notSingleSection:
            "the change set is not a change of a single-section list"
        }
    }
}
