import Dispatch

/// A closure that receives events, and where it runs: on the main actor or on a dispatch
/// queue of your choice. Calls happen one at a time, in the order of the events.
///
/// ```swift
/// let watcher = ChangeWatcher<Item>(store: store, watching: [id], handler: .mainActor { event in
///     label.text = event.updated[id]?.title
/// })
/// ```
public struct EventHandler<Event: Sendable>: Sendable {
    let deliver: @Sendable (Event) -> Void

    /// Calls `body` on the main actor.
    public static func mainActor(_ body: @escaping @MainActor @Sendable (Event) -> Void) -> Self {
        Self { event in
            DispatchQueue.main.async { MainActor.assumeIsolated { body(event) } }
        }
    }

    /// Calls `body` on `queue`; use a serial queue to keep the calls in order.
    public static func queue(_ queue: DispatchQueue, _ body: @escaping @Sendable (Event) -> Void) -> Self {
        Self { event in queue.async { body(event) } }
    }
}
