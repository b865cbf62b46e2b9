/// The deterministic sequence of write transactions one observe workload commits, drawn from
/// a seed and the seeded database's rows, so that every contender commits the same changes.
public struct ChangeScript {
    /// What each transaction of the script does.
    public enum Kind: Sendable {
        /// Moves one row of the live query to the other half of the score range.
        case updateOne
        /// Inserts one row that the live query includes.
        case insertOne
        /// Deletes one row of the live query.
        case deleteOne
        /// Gives `count` random rows of the table a random score and flag, so that some of them
        /// enter, leave or move in the live query.
        case updateMany(count: Int)
    }

    private let kind: Kind
    private let tableRowCount: Int
    private var liveRows: [(id: Int64, score: Double)]
    private var generator: ItemGenerator

    /// Creates the script of `kind` for a database seeded by `Fixtures` with `rows` rows.
    public init(kind: Kind, seededRows rows: Int, seed: UInt64 = 0xC4A9_6E50) {
        self.kind = kind
        tableRowCount = rows
        liveRows = Self.flaggedRows(seededRows: rows)
        generator = ItemGenerator(seed: seed)
    }

    /// The next transaction. `updateOne` and `deleteOne` keep track of the live rows they
    /// change; rows the script inserts are never chosen by later steps, and `updateMany` draws
    /// from all the seeded rows every time.
    public mutating func next() -> ItemChange {
        switch kind {
        case .updateOne:
            return moveOneLiveRow()
        case .insertOne:
            return .insert(generator.next(flag: true))
        case .deleteOne:
            let index = generator.nextIndex(below: liveRows.count)
            return .delete(id: liveRows.swapRemoveAt(index).id)
        case .updateMany(let count):
            return .update(randomRowUpdates(count: count))
        }
    }

    private mutating func moveOneLiveRow() -> ItemChange {
        let index = generator.nextIndex(below: liveRows.count)
        let halfRange = ItemGenerator.scoreRange / 2
        let oldScore = liveRows[index].score
        let newScore = oldScore < halfRange ? oldScore + halfRange : oldScore - halfRange
        liveRows[index].score = newScore
        return .update([RowUpdate(id: liveRows[index].id, score: newScore, flag: true)])
    }

    private mutating func randomRowUpdates(count: Int) -> [RowUpdate] {
        var chosen = Set<Int64>()
        while chosen.count < min(count, tableRowCount) {
            chosen.insert(Int64(generator.nextIndex(below: tableRowCount) + 1))
        }
        return chosen.sorted().map { id in
            RowUpdate(id: id, score: generator.nextScore(), flag: generator.nextFlag())
        }
    }

    /// Replays the fixture generator: row `n` of a seeded database is its `n`th item.
    private static func flaggedRows(seededRows rows: Int) -> [(id: Int64, score: Double)] {
        var fixtureGenerator = ItemGenerator()
        var flagged: [(id: Int64, score: Double)] = []
        for id in 1...Int64(rows) {
            let item = fixtureGenerator.next()
            if item.flag {
                flagged.append((id, item.score))
            }
        }
        return flagged
    }
}

extension Array {
    /// Removes and returns the element at `index` in O(1) by moving the last element into its place.
    fileprivate mutating func swapRemoveAt(_ index: Int) -> Element {
        swapAt(index, count - 1)
        return removeLast()
    }
}
