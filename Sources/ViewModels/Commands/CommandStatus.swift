/// Where a ``Command`` stands in its life cycle.
///
/// A command starts `idle`, is `executing` while its action runs, and then rests in the
/// state its most recent execution ended in until the next execution begins.
public enum CommandStatus: Sendable, Hashable {
    /// The command has never run.
    case idle
    /// The action is running; further executions are ignored until it ends.
    case executing
    /// The most recent execution returned an output.
    case succeeded
    /// The most recent execution threw an error other than cancellation.
    case failed
    /// The most recent execution was cancelled, by ``Command/cancel()``, by cancelling the
    /// task that awaited it, or by the action throwing `CancellationError`.
    case cancelled
}
