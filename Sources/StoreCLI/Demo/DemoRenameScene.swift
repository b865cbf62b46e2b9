import SQLiteStoreCore

/// The demo's last scene: the items of two lists sectioned by their list's name, and a
/// rename of one list moving its items live, while a view model follows one of them and its
/// list's name through the relationship.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
enum DemoRenameScene {
    /// Plants the list Errands beside the list `demoListID`, shows both, and renames Errands to Chores.
    @MainActor
    static func run(in store: Store, besideList demoListID: Int64) async throws {
        let errands = try await DemoSeed.plantErrands(in: store)
        let stamps = errands.ids["Stamps"] ?? 0
        let session = try DemoSession(
            store: store, request: DemoItem.sectionedByListName(inLists: [demoListID, errands.listID]), listID: errands.listID,
            watchedItemID: stamps)
        print("lists \"Demo\" and \"Errands\", sectioned by list name; the view model follows item #\(stamps) (Stamps) and its list")
        session.printState()
        await session.perform(.renameList(id: errands.listID, name: "Chores"))
        session.stop()
    }
}
