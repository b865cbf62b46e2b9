/// A many-to-many relationship of model `Source` to model `Target` through a join table
/// whose rows hold a key of each: two to-one links of the join table. Declare it as a static
/// property of the source:
///
/// ```swift
/// extension Item {
///     static let tags = ManyToMany<Item, Tag>("tags", through: "item_tag", sourceKey: "item_id", targetKey: "tag_id")
/// }
/// ```
///
/// The join table needs no model. Declare the inverse (`Tag.items`) the same way, with the keys swapped.
public struct ManyToMany<Source: StoreModel, Target: StoreModel>: Sendable, Hashable {
    /// The relationship's name.
    public let name: String
    /// The join table's link to the source: `item_tag.item_id → item.id`.
    public let source: ToOneLink
    /// The join table's link to the target: `item_tag.tag_id → tag.id`.
    public let target: ToOneLink

    /// The targets whose key sits beside the source's key in a row of `joinTable`:
    /// `sourceKey` refers to `Source`'s `sourceReferencedKey`, `targetKey` to `Target`'s
    /// `targetReferencedKey` (their primary keys by default).
    public init(
        _ name: String, through joinTable: String, sourceKey: String, targetKey: String,
        sourceReferencedKey: String = Source.primaryKeyColumn, targetReferencedKey: String = Target.primaryKeyColumn
    ) {
        self.name = name
        source = ToOneLink(
            name: Source.tableName, childTable: joinTable, foreignKey: sourceKey, parentTable: Source.tableName,
            referencedKey: sourceReferencedKey)
        target = ToOneLink(
            name: Target.tableName, childTable: joinTable, foreignKey: targetKey, parentTable: Target.tableName,
            referencedKey: targetReferencedKey)
    }

    /// The join table.
    public var joinTable: String { source.childTable }

    /// The source's targets, as rows correlated to the source's row in a subquery.
    var targetRows: RelatedRows {
        let join = SQLIdentifier.quote(joinTable)
        let linked =
            "SELECT \(join).\(SQLIdentifier.quote(target.foreignKey)) FROM \(join) WHERE \(source.childCorrelation)"
        let key = "\(SQLIdentifier.quote(target.parentTable)).\(SQLIdentifier.quote(target.referencedKey))"
        return RelatedRows(table: target.parentTable, correlation: "\(key) IN (\(linked))", joinTable: joinTable)
    }

    /// Whether the source has at least one target.
    public func any() -> ModelPredicate<Source> {
        ModelPredicate(targetRows.exists(where: nil))
    }

    /// How many targets the source has, to compare with a number: `Item.tags.count >= 2`.
    public var count: RelatedCount<Source> { counting(where: nil) }

    /// The count of the targets that meet `condition`; followed pair by pair when the
    /// condition reads the targets' own columns only.
    func counting(where condition: SQLExpression?) -> RelatedCount<Source> {
        let readsTargetsOnly = condition.map { $0.referencedColumns != nil && $0.relatedTables.isEmpty } ?? true
        return RelatedCount(
            targetRows.count(where: condition), relationship: name, from: source, pairs: readsTargetsOnly ? (source, target) : nil)
    }
}

extension ManyToMany where Target: TypedStoreModel {
    /// Whether at least one target meets `condition`: `Item.tags.any { $0.name == "urgent" }`.
    public func any(_ condition: (Target.Columns) -> ModelPredicate<Target>) -> ModelPredicate<Source> {
        ModelPredicate(targetRows.exists(where: condition(Target.columns).expression))
    }

    /// How many targets meet `condition`: `Item.tags.count { $0.name != "someday" } >= 2`.
    public func count(_ condition: (Target.Columns) -> ModelPredicate<Target>) -> RelatedCount<Source> {
        counting(where: condition(Target.columns).expression)
    }
}
