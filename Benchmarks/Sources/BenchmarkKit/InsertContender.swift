/// Workloads `insert` and `notifyOverhead`: N models inserted in one transaction.
public protocol InsertContender: Contender {
    /// The type rows are written from: `Item`, or the library's own model of the same row.
    associatedtype Model: BenchmarkModel = Item

    /// Opens the empty database at `databasePath`; not measured.
    init(databasePath: String) throws

    /// Inserts `items` in one write transaction and stores each new rowid in its item's `id`.
    /// With a subscriber attached, returns only once the subscriber holds the transaction's changes.
    func insert(_ items: inout [Model]) throws

    /// Attaches one change subscriber that receives, for every committed transaction, the rowids
    /// it inserted into `item`; not measured.
    func attachChangeSubscriber() throws

    /// How many inserted rowids the subscriber has received so far, for validation.
    var notifiedInsertCount: Int { get }
}
