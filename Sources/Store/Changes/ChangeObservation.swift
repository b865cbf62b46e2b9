/// A subscription to a store's changes; ends when cancelled or released.
public final class ChangeObservation: Sendable {
    private let cancellation: Locked<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) {
        cancellation = Locked(cancel)
    }

    deinit { cancel() }

    /// Stops the deliveries; changes already enqueued may still arrive.
    public func cancel() {
        let cancel = cancellation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        cancel?()
    }
}
