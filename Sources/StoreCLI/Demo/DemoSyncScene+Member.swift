/// The sync scene's second person, given on the command line whether or not `store` was built
/// with the scene (see `DemoSyncScene`).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension DemoSyncScene {
    /// The second person: the account A shares with, and its token.
    struct Member {
        /// The account's name, as `sync-server add-token --account` gave it.
        let account: String
        /// The account's token.
        let token: String
    }
}
