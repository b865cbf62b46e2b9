/// What a list shows above a section: the section's view model for its header.
public struct SectionHeader: Hashable, Sendable {
    /// The header's text.
    public var title: String

    /// Creates a header with a title.
    public init(title: String) {
        self.title = title
    }
}
