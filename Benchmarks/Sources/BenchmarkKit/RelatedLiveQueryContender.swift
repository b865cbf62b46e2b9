/// Workload `observeRelated`: a live query of every item ordered and sectioned by its list's
/// name (a to-one relationship, `item.list_id → list.id`), and the time from renaming one list
/// of 100 items to the change set in the consumer's hands.
public protocol RelatedLiveQueryContender: Contender {
    /// Opens the related database at `databasePath` (`Fixtures.makeRelatedDatabase`), starts the
    /// live query and returns once the consumer holds the initial results; not measured.
    init(databasePath: String) async throws

    /// Commits `rename` in one write transaction and returns once the consumer holds the change
    /// set that transaction caused.
    func commit(_ rename: ListRename) async throws -> ChangeSummary
}

/// One list renamed: every item of list `listID` moves to the section of `name`.
public struct ListRename: Sendable {
    /// The list's id.
    public let listID: Int64
    /// Its new name, which no list had before.
    public let name: String
}

/// The query the peers re-run: each item's id and its list's name, in the live query's order.
public enum RelatedSQL {
    /// `SELECT item.id, list.name … JOIN … ORDER BY list.name, item.id`.
    public static let itemsByListName = """
        SELECT item.id, list.name FROM item JOIN list ON list.id = item.list_id ORDER BY list.name, item.id
        """

    /// Renames one list: `?1` the new name, `?2` the list's id.
    public static let renameList = "UPDATE list SET name = ?1 WHERE id = ?2"

    /// Counts the items whose list name differs between two reads (`id → name`): the items the
    /// rename moved, which is what the peers report.
    public static func summary(from old: [Int64: String], to new: [Int64: String]) -> ChangeSummary {
        var moved = 0
        for (id, name) in new where old[id] != name { moved += 1 }
        return ChangeSummary(insertions: 0, removals: 0, updates: moved)
    }
}

/// The renames of one `observeRelated` benchmark: seeded, the same for every contender. Each
/// gives a random list a name that sorts between two others, so its items move across the results.
public struct ListRenameScript {
    private let listCount: Int
    private var generator: ItemGenerator
    private var step = 0

    /// The script for a related database of `rows` items (`rows / 100` lists).
    public init(seededRows rows: Int, seed: UInt64 = 0x5E1A_7ED0) {
        listCount = rows / Fixtures.itemsPerList
        generator = ItemGenerator(seed: seed)
    }

    /// The next rename.
    public mutating func next() -> ListRename {
        step += 1
        let list = Int64(generator.nextIndex(below: listCount) + 1)
        let neighbour = generator.nextIndex(below: listCount) + 1
        return ListRename(listID: list, name: Fixtures.listName(neighbour) + " renamed \(step)")
    }
}
