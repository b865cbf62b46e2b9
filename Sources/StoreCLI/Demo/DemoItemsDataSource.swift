import FetchedResults
import Foundation
import Store
import ViewModels

/// The demo's list: the items of one list, sectioned by category, ordered by position,
/// kept current from the store's change notifications. Each row is the item's rowid and
/// its shown values (title, position, due date, done).
@MainActor
final class DemoItemsDataSource: DataSource {
    /// One row of the list.
    struct Row {
        let id: Int64
        let values: [DatabaseValue]
    }

    let changes = ChangeSetPublisher()
    /// The latest change set and the results it led to.
    private(set) var lastUpdate: WatchUpdate?
    private let store: Store
    private let query: WatchQuery
    private var results: WatchResults
    private var following: Task<Void, Never>?

    /// Reads the list now and follows its changes until `stop()`.
    init(store: Store, listID: Int64) async throws {
        self.store = store
        query = WatchQuery(table: "item", columns: ["title", "position", "due_date", "done"], condition: "list_id = \(listID)",
                           sortKeys: [.init(column: "category", isAscending: true), .init(column: "position", isAscending: true)],
                           sectionColumn: "category")
        let changes = store.changes(in: ["item"])
        results = try await store.read { [query] db in try WatchResults.fetch(query, in: db) }
        following = Task { [weak self] in
            for await change in changes {
                await self?.refresh(isExternal: change.isExternal)
            }
        }
    }

    func stop() { following?.cancel() }

    private func refresh(isExternal: Bool) async {
        guard let next = try? await store.read({ [query] db in try WatchResults.fetch(query, in: db) }) else { return }
        let changeSet = results.changeSet(to: next)
        let old = results
        results = next
        guard !changeSet.isEmpty else { return }
        lastUpdate = WatchUpdate(changeSet: changeSet, old: old, new: next,
                                 origin: isExternal ? .external : .local(latency: nil), time: Date())
        changes.publish(changeSet)
    }

    var numberOfSections: Int { results.snapshot.sections.count }

    func numberOfRows(inSection section: Int) -> Int { results.snapshot.sections[section].ids.count }

    func item(at indexPath: IndexPath) -> Row {
        let id = results.snapshot.sections[indexPath.section].ids[indexPath.row]
        return Row(id: id, values: results.values[id] ?? [])
    }

    func header(forSection section: Int) -> SectionHeader? {
        SectionHeader(title: results.snapshot.sections[section].name ?? "(no category)")
    }
}
