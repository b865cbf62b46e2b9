/// How one call to ``Command/execute(_:)`` or ``Command/start(_:)`` ended.
public enum CommandOutcome<Output: Sendable>: Sendable {
    /// The action ran and returned `output`.
    case succeeded(Output)
    /// The action ran and threw `error` (never a cancellation).
    case failed(any Error)
    /// The execution was cancelled; any output or error the action produced afterwards is discarded.
    case cancelled
    /// The action did not run because ``Command/canExecute`` was false: another execution was
    /// still running, or the command was disabled.
    case ignored

    /// The output when the execution succeeded, otherwise `nil`.
    public var output: Output? {
        if case .succeeded(let output) = self { output } else { nil }
    }

    /// The error when the execution failed, otherwise `nil`.
    public var error: (any Error)? {
        if case .failed(let error) = self { error } else { nil }
    }

    /// Classifies the result of a finished action; `wasCancelled` says whether cancellation was requested.
    init(_ result: Result<Output, any Error>, wasCancelled: Bool) {
        if wasCancelled {
            self = .cancelled
            return
        }
        switch result {
        case .failure(is CancellationError): self = .cancelled
        case .failure(let error): self = .failed(error)
        case .success(let output): self = .succeeded(output)
        }
    }
}

extension CommandOutcome: Equatable where Output: Equatable {
    /// Outcomes of the same case are equal when their outputs are, or their errors: errors of
    /// an `Equatable` type compare with `==`, others by type and description.
    public static func == (lhs: CommandOutcome, rhs: CommandOutcome) -> Bool {
        switch (lhs, rhs) {
        case (.succeeded(let a), .succeeded(let b)): a == b
        case (.failed(let a), .failed(let b)): errorsAreEqual(a, b)
        case (.cancelled, .cancelled), (.ignored, .ignored): true
        default: false
        }
    }

    private static func errorsAreEqual(_ lhs: any Error, _ rhs: any Error) -> Bool {
        if let lhs = (lhs as Any) as? any Equatable { return isEqual(lhs, rhs) }
        return type(of: lhs) == type(of: rhs) && String(describing: lhs) == String(describing: rhs)
    }

    private static func isEqual<E: Equatable>(_ lhs: E, _ rhs: any Error) -> Bool {
        (rhs as? E).map { $0 == lhs } ?? false
    }
}
