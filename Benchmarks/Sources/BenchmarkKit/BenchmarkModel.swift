/// A model of one `item` row: `Item` itself, or a library's own declaration of the same
/// columns (a macro-generated model), made from an `Item` before the clock starts.
public protocol BenchmarkModel {
    /// The model of `item`'s values.
    init(_ item: Item)
    /// The rowid, `nil` until inserted.
    var id: Int64? { get }
}

extension Item: BenchmarkModel {
    /// `item` itself.
    public init(_ item: Item) { self = item }
}
