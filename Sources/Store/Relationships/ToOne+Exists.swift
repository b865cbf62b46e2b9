/// Predicates on the related parent as a whole, written as `EXISTS` on the parent's key.
extension ToOne {
    /// The child's parent, as the row correlated to the child's row in a subquery.
    var parentRows: RelatedRows {
        RelatedRows(table: link.parentTable, correlation: link.parentCorrelation)
    }

    /// Whether the child's foreign key points at an existing parent (false for NULL).
    public var exists: ModelPredicate<Child> { ModelPredicate(parentRows.exists(where: nil)) }
}

extension ToOne where Parent: TypedStoreModel {
    /// Whether the child has a parent that meets `condition`, built from the parent's typed
    /// columns: `Item.list.matches { $0.name == "Groceries" }`, one `EXISTS` however many
    /// of the parent's columns the condition reads.
    public func matches(_ condition: (Parent.Columns) -> ModelPredicate<Parent>) -> ModelPredicate<Child> {
        ModelPredicate(parentRows.exists(where: condition(Parent.columns).expression))
    }
}
