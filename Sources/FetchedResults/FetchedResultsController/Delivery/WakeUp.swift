import SQLiteStoreCore

/// A one-shot signal that one task awaits on its own actor and any thread gives.
final class WakeUp: Sendable {
    private struct State {
        var isSignalled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// Wakes the waiter, now or as soon as it waits; later calls do nothing.
    func signal() {
        let waiter = state.withLock { state in
            state.isSignalled = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once `signal()` was called, resuming on `actor`.
    func wait(isolation actor: isolated (any Actor)?) async {
        await withCheckedContinuation(isolation: actor) { continuation in
            let isSignalled = state.withLock { state in
                if !state.isSignalled { state.waiter = continuation }
                return state.isSignalled
            }
            if isSignalled { continuation.resume() }
        }
    }
}
