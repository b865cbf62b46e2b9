/// Workloads `fetchAll` and `fetchPage`: ordered reads into models.
public protocol FetchContender: Contender {
    /// The type rows are read into: `Item`, or the library's own model of the same row.
    associatedtype Model: BenchmarkModel = Item

    /// Opens the seeded database at `databasePath`; not measured.
    init(databasePath: String) throws

    /// Reads every row ordered by score, in one read transaction.
    func fetchAllByScore() throws -> [Model]

    /// Reads `limit` rows starting at `offset` in score order, in one read transaction.
    func fetchPageByScore(limit: Int, offset: Int) throws -> [Model]
}
