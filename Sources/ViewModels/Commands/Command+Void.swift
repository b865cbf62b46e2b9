@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
extension Command where Input == Void {
    /// Creates a command whose action takes no input.
    /// - Parameters:
    ///   - isEnabled: The initial value of ``isEnabled``.
    ///   - enabledWhen: An extra condition for ``canExecute``, evaluated on every check.
    ///   - action: The work to perform.
    public convenience init(
        isEnabled: Bool = true,
        enabledWhen: @escaping @MainActor () -> Bool = { true },
        action: @escaping @Sendable () async throws -> Output
    ) {
        self.init(isEnabled: isEnabled, enabledWhen: enabledWhen) { (_: Void) in try await action() }
    }

    /// Runs the action and returns how it ended; see ``execute(_:)``.
    public func execute() async -> CommandOutcome<Output> {
        await execute(())
    }

    /// Starts the action without waiting for it; see ``start(_:)``.
    @discardableResult
    public func start() -> Task<CommandOutcome<Output>, Never> {
        start(())
    }
}
