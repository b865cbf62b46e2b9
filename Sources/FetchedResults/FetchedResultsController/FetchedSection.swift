/// One section of fetched results.
public struct FetchedSection: Sendable, Hashable {
    /// The section key's value as text (`nil` for NULL, or when the request has no section key).
    public let name: String?
    /// How many objects the section holds.
    public let numberOfObjects: Int
}
