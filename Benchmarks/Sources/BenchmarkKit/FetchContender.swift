/// Workloads `fetchAll` and `fetchPage`: ordered reads into models.
public protocol FetchContender: Contender {
    /// Opens the seeded database at `databasePath`; not measured.
    init(databasePath: String) throws

    /// Reads every row ordered by score, in one read transaction.
    func fetchAllByScore() throws -> [Item]

    /// Reads `limit` rows starting at `offset` in score order, in one read transaction.
    func fetchPageByScore(limit: Int, offset: Int) throws -> [Item]
}
