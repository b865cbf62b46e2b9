/// The size of a change set as its consumer received it: the benchmarks check that something
/// arrived, they do not compare the contenders' change sets beyond that.
public struct ChangeSummary: Sendable, Equatable {
    /// Rows that entered the results.
    public var insertions: Int
    /// Rows that left the results.
    public var removals: Int
    /// Rows that stayed but changed value or position.
    public var updates: Int

    /// Creates a summary from its counts.
    public init(insertions: Int, removals: Int, updates: Int) {
        self.insertions = insertions
        self.removals = removals
        self.updates = updates
    }

    /// Whether the change set describes no change at all.
    public var isEmpty: Bool {
        insertions == 0 && removals == 0 && updates == 0
    }
}
