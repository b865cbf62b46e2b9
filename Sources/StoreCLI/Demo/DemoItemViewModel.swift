import Foundation
import Observation
import Store

/// The view model of one item: derived properties a detail screen would show, recomputed
/// when a transaction changes the item; deletion is its own state.
@MainActor
@Observable
final class DemoItemViewModel {
    /// The item's title, or "(deleted)".
    private(set) var title = ""
    /// "done", "due YYYY-MM-DD" or "open".
    private(set) var status = ""
    /// Whether the item was deleted.
    private(set) var isDeleted = false
    /// How many times the derived properties were recomputed.
    private(set) var updateCount = 0

    @ObservationIgnored let id: ObjectID
    @ObservationIgnored private let store: Store
    @ObservationIgnored private var following: Task<Void, Never>?

    init(store: Store, itemID: Int64) async throws {
        self.store = store
        id = ObjectID(table: "item", rowID: itemID)
        let changes = store.changes(in: ["item"])
        try await reload()
        following = Task { [weak self, id] in
            for await change in changes where change.contains(id) {
                try? await self?.reload()
            }
        }
    }

    func stop() { following?.cancel() }

    /// One line for the terminal.
    var summary: String {
        isDeleted ? "item #\(id.rowID) was deleted" : "\"\(title)\" · \(status) · \(updateCount) update\(updateCount == 1 ? "" : "s")"
    }

    private func reload() async throws {
        let row = try await store.read { [id] db in
            try db.fetchRows(sql: "SELECT title, due_date, done FROM item WHERE id = ?", arguments: [id.rowID]).first
        }
        guard let row else {
            isDeleted = true
            return
        }
        let newTitle = row[0].displayText
        let newStatus = row[2] == .integer(1) ? "done" : row[1].isNull ? "open" : "due \(row[1].displayText)"
        if (newTitle, newStatus) != (title, status) {
            if !title.isEmpty { updateCount += 1 }
            title = newTitle
            status = newStatus
        }
    }
}
