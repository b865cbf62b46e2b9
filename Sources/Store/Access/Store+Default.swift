extension Store {
    /// The store the process set with ``default``.
    private static let processDefault = Locked<Store?>(nil)

    /// The store ``withDefault(_:isolation:operation:)`` binds to the current task.
    @TaskLocal private static var taskDefault: Store?

    /// The store that code given none uses (`@LiveQuery(request)` without `in:`): the one
    /// bound to the current task by ``withDefault(_:isolation:operation:)``, else the one the
    /// app set here, once, at launch; `nil` when neither. In SwiftUI, a store in the
    /// environment (`.environment(\.store, store)`) comes first.
    public static var `default`: Store? {
        get { taskDefault ?? processDefault.current }
        set { processDefault.withLock { $0 = newValue } }
    }

    /// Runs `operation` with `store` as the ``default`` of the current task and the tasks it
    /// creates, whatever the process's default: a test, a job on a store of its own.
    public static func withDefault<Result>(
        _ store: Store, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $taskDefault.withValue(store, operation: operation)
    }
}
