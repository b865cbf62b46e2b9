/// One delivered change: the change set and the results it leads to.
public struct FetchedResultsChange: Sendable {
    /// The step from the previously delivered results to `results`.
    public let changeSet: ChangeSet
    /// The results after the change.
    public let results: FetchedResultsSnapshot
    /// Whether this is the first element of `changes(initial: true)`: the step from a list
    /// with no sections at all (`SectionedSnapshot()`, `DiffableSnapshot()`, an empty table
    /// view) to the current results, inserting every section.
    public let isInitial: Bool

    init(changeSet: ChangeSet, results: FetchedResultsSnapshot, isInitial: Bool = false) {
        self.changeSet = changeSet
        self.results = results
        self.isInitial = isInitial
    }
}
