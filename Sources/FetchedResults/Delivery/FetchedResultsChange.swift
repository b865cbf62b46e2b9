/// One delivered change: the change set and the results it leads to.
public struct FetchedResultsChange: Sendable {
    /// The step from the previously delivered results to `results`.
    public let changeSet: ChangeSet
    /// The results after the change.
    public let results: FetchedResultsSnapshot
}
