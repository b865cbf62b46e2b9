import Dispatch
import Foundation
import SQLiteStoreCore

/// What ends `store watch`: SIGINT or SIGTERM at any time, and with `--json` the end of
/// standard input once the initial results are printed.
///
/// Stopping cancels the session's task and interrupts the store's running statements
/// (`sqlite3_interrupt`), again every `interruptInterval` until the watch lets the store go:
/// an interrupt that lands between two statements does nothing, and a query with an endless
/// `--where` never returns otherwise. Keep the value alive while watching.
/// (`@unchecked Sendable`: the signal catcher is set once in `init` and only released in
/// `deinit`; everything else is behind the lock.)
final class WatchStop: @unchecked Sendable {
    private struct State {
        var isStopping = false
        /// Weak: interrupting stops once the watch lets the store go.
        weak var store: Store?
        var session: Task<Void, any Error>?
    }

    private let state = Locked(State())
    private let signals: SignalCatcher
    private static let interruptInterval = DispatchTimeInterval.milliseconds(20)

    /// Starts listening for SIGINT and SIGTERM: from now on, none is missed (see `SignalCatcher`).
    init() {
        let state = state
        signals = SignalCatcher([SIGINT, SIGTERM]) { Self.stop(state) }
    }

    /// Whether a stop was asked for: errors that follow it (an interrupted query) end the
    /// watch with exit 0.
    var isStopping: Bool { state.withLock(\.isStopping) }

    /// Throws `CancellationError` once a stop was asked for.
    func check() throws {
        if isStopping { throw CancellationError() }
    }

    /// Interrupts `store`'s statements when stopping, for as long as the store lives.
    func interrupt(_ store: Store) {
        let isStopping = state.withLock { state in
            state.store = store
            return state.isStopping
        }
        if isStopping { Self.keepInterrupting(state) }
    }

    /// Cancels `session` when stopping.
    func cancel(_ session: Task<Void, any Error>) {
        let cancelNow = state.withLock { state in
            state.session = session
            return state.isStopping
        }
        if cancelNow { session.cancel() }
    }

    /// Stops once standard input ends; call after the initial results are printed, so that
    /// `watch --json </dev/null` always prints them.
    func watchStandardInput() {
        let state = state
        Thread.detachNewThread {
            Self.waitForEndOfStandardInput()
            Self.stop(state)
        }
    }

    private static func stop(_ state: Locked<State>) {
        let session = state.withLock { state in
            state.isStopping = true
            return state.session
        }
        session?.cancel()
        keepInterrupting(state)
    }

    /// Interrupts the store now and every `interruptInterval` while it is set.
    private static func keepInterrupting(_ state: Locked<State>) {
        guard let store = state.withLock(\.store) else { return }
        store.interruptRunningStatements()
        DispatchQueue.global().asyncAfter(deadline: .now() + interruptInterval) { keepInterrupting(state) }
    }

    private static func waitForEndOfStandardInput() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EINTR) { return }
        }
    }
}
