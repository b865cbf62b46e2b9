/// Keeps a handler given to ``ChangeSetPublisher/subscribe(_:)`` subscribed.
///
/// The subscription lasts until ``cancel()`` or until the token is released; a released
/// token's handler is never called again and is dropped at the publisher's next use.
/// The token does not keep the publisher or its data source alive.
@MainActor
public final class ChangeSetSubscription {
    private weak var publisher: ChangeSetPublisher?
    private let id: Int

    init(publisher: ChangeSetPublisher, id: Int) {
        self.publisher = publisher
        self.id = id
    }

    /// Ends the subscription now; calling it again does nothing.
    public func cancel() {
        publisher?.unsubscribe(id)
        publisher = nil
    }
}
