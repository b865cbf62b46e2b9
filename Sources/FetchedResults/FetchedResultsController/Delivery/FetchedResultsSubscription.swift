/// Keeps handlers given to `FetchedResultsController.subscribe(didFail:didChange:)` called.
///
/// The subscription lasts until ``cancel()`` or until the token is released; a released
/// token's handlers are never called again. The token does not keep the controller alive.
@MainActor
package final class FetchedResultsSubscription {
    private(set) var isActive = true

    init() {}

    /// Ends the subscription now; calling it again does nothing.
    package func cancel() { isActive = false }
}

/// The handlers of one subscription, held by the controller.
@MainActor
struct FetchedResultsSubscriber {
    weak var token: FetchedResultsSubscription?
    let didChange: @MainActor (FetchedResultsChange) -> Void
    let didFail: (@MainActor (FetchedResultsError) -> Void)?

    var isActive: Bool { token?.isActive ?? false }
}
