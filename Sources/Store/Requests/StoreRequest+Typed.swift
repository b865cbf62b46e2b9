extension StoreRequest {
    /// The request with `condition`, built from `M`'s typed columns, added (AND) to its predicate.
    public func filter(_ condition: ModelPredicate<M>) -> Self {
        filter(condition.expression)
    }
}

extension StoreRequest where M: TypedStoreModel {
    /// The request with the condition built from `M`'s typed columns added (AND) to its
    /// predicate: `.filter { $0.done == false }`.
    public func filter(_ condition: (M.Columns) -> ModelPredicate<M>) -> Self {
        filter(condition(M.columns))
    }

    /// The request sorted by one of `M`'s typed columns: `.order { $0.title.ascending }`.
    public func order(_ ordering: (M.Columns) -> Ordering) -> Self {
        order(ordering(M.columns))
    }

    /// The request sorted by several of `M`'s typed columns, most significant first:
    /// `.order { [$0.category.ascending, $0.position.ascending] }`.
    public func order(_ orderings: (M.Columns) -> [Ordering]) -> Self {
        var copy = self
        copy.orderings = orderings(M.columns)
        return copy
    }

    /// The request grouped into sections by one of `M`'s typed columns (sort by it first):
    /// `.sectioned { $0.category }`.
    public func sectioned<Value>(by key: (M.Columns) -> TypedColumn<M, Value>) -> Self {
        sectioned(by: key(M.columns).column)
    }
}
