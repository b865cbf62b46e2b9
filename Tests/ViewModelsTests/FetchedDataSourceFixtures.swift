import Foundation
import SQLiteStoreCore
import SQLiteStoreResults
import SQLiteStoreViewModels

/// The stored model of the fetched-data-source tests: a chore in a room, ranked in it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct Chore: StoreModel, Equatable {
    static let tableName = "chore"
    var id: Int64?
    var title: String
    var room: String
    var rank: Int

    static let schema = """
        CREATE TABLE chore(
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            room TEXT NOT NULL,
            rank INTEGER NOT NULL
        );
        """

    /// Sectioned by room, ranked inside it.
    static let byRoom = StoreRequest<Chore>()
        .order(Column("room").ascending, Column("rank").ascending, Column("id").ascending)
        .sectioned(by: Column("room"))
}

/// A cell view model: a class, so that the tests can check identity and lifetime.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class ChoreCell {
    let id: Int64
    let title: String

    init(_ chore: Chore) {
        id = chore.id ?? -1
        title = chore.title
    }

    /// The placeholder of a row that could not be read.
    init(placeholderFor id: ObjectID) {
        self.id = id.rowID
        title = "…"
    }

    /// How a list shows the cell.
    var line: String { "#\(id) \(title)" }
}

/// A data source of ``ChoreCell``s over `request`, counting how many cells it makes.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class ChoreCellFactory {
    private(set) var made = 0

    func dataSource(store: Store, request: StoreRequest<Chore> = Chore.byRoom) -> FetchedDataSource<Chore, ChoreCell> {
        FetchedDataSource(store: store, request: request, placeholder: ChoreCell.init(placeholderFor:)) { [weak self] chore in
            self?.made += 1
            return ChoreCell(chore)
        }
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Store {
    /// What a list of ``Chore/byRoom`` must show now, read straight from SQLite into models
    /// (not through a controller).
    func choreLinesByRoom() throws -> [String] {
        let chores = try read { db in try db.fetch(Chore.byRoom) }
        var lines: [String] = []
        for (index, chore) in chores.enumerated() {
            if index == 0 || chores[index - 1].room != chore.room { lines.append("[\(chore.room)]") }
            lines.append("  #\(chore.id ?? -1) \(chore.title)")
        }
        return lines
    }
}
