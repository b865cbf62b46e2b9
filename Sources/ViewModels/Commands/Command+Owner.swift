@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
extension Command {
    /// Creates a command whose action works on `owner`, held weakly: the safe way for a view
    /// model to give itself a command.
    ///
    /// A command that captures its owning view model strongly in its action forms a cycle
    /// (the view model holds the command, the command its action, the action the view model)
    /// and neither is ever freed. Here the action receives the owner as an argument instead:
    ///
    /// ```swift
    /// @MainActor @Observable final class EditorViewModel {
    ///     let store: Store
    ///     @ObservationIgnored private(set) lazy var save: Command<Note, Void> = Command(owner: self) { editor, note in
    ///         try await editor.store.write { db in var note = note; try db.save(&note) }
    ///     }
    /// }
    /// ```
    ///
    /// Once the owner is gone, an execution ends `cancelled` without running the action.
    /// - Parameters:
    ///   - owner: The object the action works on, held weakly.
    ///   - isEnabled: The initial value of ``isEnabled``.
    ///   - enabledWhen: An extra condition for ``canExecute``, evaluated on every check.
    ///   - action: The work to perform, given the owner and the input.
    public convenience init<Owner: AnyObject & Sendable>(
        owner: Owner,
        isEnabled: Bool = true,
        enabledWhen: @escaping @MainActor () -> Bool = { true },
        action: @escaping @Sendable (Owner, Input) async throws -> Output
    ) {
        self.init(isEnabled: isEnabled, enabledWhen: enabledWhen) { [weak owner] input in
            guard let owner else { throw CancellationError() }
            return try await action(owner, input)
        }
    }
}
