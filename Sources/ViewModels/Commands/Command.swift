import Observation

/// An asynchronous action with an observable status, for buttons and other UI triggers.
///
/// ```swift
/// let save = Command { (note: Note) in try await notes.save(note) }
/// Button("Save") { save.start(note) }.disabled(!save.canExecute)
/// ```
///
/// - **No double execution.** While an execution runs, ``execute(_:)`` and ``start(_:)`` do
///   not run the action again and do not queue it: they return ``CommandOutcome/ignored``
///   at once. The same happens while ``isEnabled`` is false or the `enabledWhen` predicate
///   returns false.
/// - **State.** ``status`` moves `idle → executing → succeeded | failed | cancelled`.
///   ``lastOutput`` keeps the output of the most recent successful execution (it survives
///   later failures and cancellations); ``lastError`` holds the error of the most recent
///   execution if it failed, and is `nil` in every other status.
/// - **Cancellation** is cooperative: ``cancel()`` cancels the action's task, and the
///   command stays `executing` until the action returns or throws. Once cancellation was
///   requested the execution ends `cancelled` whatever the action returns; an action that
///   throws `CancellationError` on its own also ends `cancelled`.
/// - **Lifetime.** A running execution keeps the command alive until the action ends.
///
/// The action runs off the main actor unless it is itself isolated to it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
@Observable
public final class Command<Input: Sendable, Output: Sendable> {
    /// The work the command performs.
    public typealias Action = @Sendable (Input) async throws -> Output

    /// Where the command stands; see ``CommandStatus``.
    public private(set) var status: CommandStatus = .idle
    /// The output of the most recent execution that succeeded.
    public private(set) var lastOutput: Output?
    /// The error of the most recent execution when it failed; `nil` unless ``status`` is `failed`.
    public private(set) var lastError: (any Error)?
    /// A switch for the UI: while false the command ignores executions.
    public var isEnabled: Bool

    /// True while the action runs.
    public var isExecuting: Bool { status == .executing }

    /// True when an execution started now would run the action: the command is enabled,
    /// its `enabledWhen` predicate holds, and no execution is running.
    ///
    /// Observable: it changes with ``status``, ``isEnabled`` and any observable state the predicate reads.
    public var canExecute: Bool { isEnabled && !isExecuting && enabledWhen() }

    @ObservationIgnored private let action: Action
    @ObservationIgnored private let enabledWhen: @MainActor () -> Bool
    @ObservationIgnored private var running: Task<Output, any Error>?

    /// Creates a command.
    /// - Parameters:
    ///   - isEnabled: The initial value of ``isEnabled``.
    ///   - enabledWhen: An extra condition for ``canExecute``, evaluated on every check.
    ///   - action: The work to perform.
    public init(
        isEnabled: Bool = true,
        enabledWhen: @escaping @MainActor () -> Bool = { true },
        action: @escaping Action
    ) {
        self.isEnabled = isEnabled
        self.enabledWhen = enabledWhen
        self.action = action
    }

    /// Runs the action with `input` and returns how it ended, or ``CommandOutcome/ignored``
    /// at once when ``canExecute`` is false.
    ///
    /// Cancelling the task that awaits this call cancels the execution.
    public func execute(_ input: Input) async -> CommandOutcome<Output> {
        guard let execution = begin(input) else { return .ignored }
        return await finish(execution)
    }

    /// Starts the action with `input` without waiting for it, for UI event handlers.
    ///
    /// ``status`` is `executing` when this returns, unless the call was ignored.
    /// - Returns: A task that yields the outcome; cancelling it cancels the execution.
    @discardableResult
    public func start(_ input: Input) -> Task<CommandOutcome<Output>, Never> {
        guard let execution = begin(input) else { return Task { .ignored } }
        return Task { await finish(execution) }
    }

    /// Requests cancellation of the running execution, if any.
    public func cancel() {
        running?.cancel()
    }

    private func begin(_ input: Input) -> Task<Output, any Error>? {
        guard canExecute else { return nil }
        status = .executing
        lastError = nil
        let action = action
        let execution = Task { try await action(input) }
        running = execution
        return execution
    }

    private func finish(_ execution: Task<Output, any Error>) async -> CommandOutcome<Output> {
        let result = await withTaskCancellationHandler {
            await execution.result
        } onCancel: {
            execution.cancel()
        }
        let outcome = CommandOutcome(result, wasCancelled: execution.isCancelled)
        record(outcome)
        return outcome
    }

    private func record(_ outcome: CommandOutcome<Output>) {
        running = nil
        switch outcome {
        case .succeeded(let output):
            lastOutput = output
            status = .succeeded
        case .failed(let error):
            lastError = error
            status = .failed
        case .cancelled:
            status = .cancelled
        case .ignored:
            break
        }
    }
}
