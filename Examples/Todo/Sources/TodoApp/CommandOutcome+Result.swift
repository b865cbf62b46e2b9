import SQLiteStore

extension CommandOutcome {
    /// The output of a command that succeeded; otherwise throws its error, or
    /// `CancellationError` when it was cancelled or ignored.
    @discardableResult
    func get() throws -> Output {
        switch self {
        case .succeeded(let output): return output
        case .failed(let error): throw error
        case .cancelled, .ignored: throw CancellationError()
        }
    }
}
