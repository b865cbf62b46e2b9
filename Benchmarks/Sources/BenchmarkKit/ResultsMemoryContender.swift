/// Workload `frcMemory`: the memory a list over every row costs while it is on screen.
public protocol ResultsMemoryContender: Contender {
    /// What keeps the list's rows available; held while memory is measured.
    associatedtype Results

    /// Opens the seeded database at `databasePath`; not measured.
    init(databasePath: String) async throws

    /// Loads every row ordered by score the way this library's users keep a list alive:
    /// a live controller with the given batch size, or the fetched array for libraries without one.
    func loadResults(batchSize: Int) async throws -> Results

    /// The number of rows `results` holds, for validation.
    func rowCount(of results: Results) -> Int
}

extension ResultsMemoryContender where Self: FetchContender {
    /// Libraries without a live controller hold the fetched array; they have no batches.
    public func loadResults(batchSize: Int) throws -> [Model] {
        try fetchAllByScore()
    }

    /// The length of the fetched array.
    public func rowCount(of results: [Model]) -> Int {
        results.count
    }
}
