import Foundation

/// Input a command refuses before writing anything.
public enum TodoInputError: Error, Equatable, CustomStringConvertible {
    /// A list's name that is empty or only spaces.
    case blankName
    /// An item's title that is empty or only spaces.
    case blankTitle

    /// What went wrong, in a sentence for the user.
    public var description: String {
        switch self {
        case .blankName: "a list needs a name"
        case .blankTitle: "an item needs a title"
        }
    }

    /// `text` without its leading and trailing white space; throws `error` when nothing is left.
    static func trimmed(_ text: String, orThrow error: TodoInputError) throws(TodoInputError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw error }
        return trimmed
    }
}
