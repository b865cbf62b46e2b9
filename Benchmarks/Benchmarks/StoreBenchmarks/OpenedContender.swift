import BenchmarkKit

/// A contender opened on its own copy of a seeded database.
struct OpenedContender<Contender> {
    /// Keeps the database files until the benchmark ends.
    let directory: TemporaryDirectory
    /// The contender, opened on the copy.
    let contender: Contender
}
