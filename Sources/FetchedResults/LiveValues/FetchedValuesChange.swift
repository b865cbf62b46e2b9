import SQLiteStoreCore

/// One element of ``LiveValues``: the change set and the values it leads to.
public struct FetchedValuesChange<M: StoreModel>: Sendable {
    /// The step from the previous element's values to `values`; the first element's inserts
    /// every section into a list that has none.
    public let changeSet: ChangeSet
    /// The results after the change, with every object's values.
    public let values: FetchedValues<M>
    /// Whether this is the first element: the values when the sequence started.
    public let isInitial: Bool
}
