/// Accumulates the row events of the open transaction, level by level for savepoints,
/// and turns them into `StoreChanges` at commit.
struct RowChangeLog {
    /// A row's existence before the transaction (or savepoint level) and after its last event.
    private struct RowState {
        var existedBefore: Bool
        var existsAfter: Bool
    }

    private struct Level {
        var savepointName: String?
        var rows: [String: [Int64: RowState]] = [:]
        var whollyChangedTables: Set<String> = []
        var affectsAllTables = false

        mutating func absorb(_ inner: Level) {
            for (table, innerRows) in inner.rows {
                for (rowID, state) in innerRows {
                    rows[table, default: [:]][rowID, default: state].existsAfter = state.existsAfter
                }
            }
            whollyChangedTables.formUnion(inner.whollyChangedTables)
            affectsAllTables = affectsAllTables || inner.affectsAllTables
        }
    }

    private var levels = [Level()]

    /// Whether no event is recorded.
    var isEmpty: Bool {
        levels.allSatisfy { $0.rows.isEmpty && $0.whollyChangedTables.isEmpty && !$0.affectsAllTables }
    }

    // MARK: Row events

    mutating func recordInsert(table: String, rowID: Int64) { record(table, rowID, existedBefore: false, existsAfter: true) }
    mutating func recordUpdate(table: String, rowID: Int64) { record(table, rowID, existedBefore: true, existsAfter: true) }
    mutating func recordDelete(table: String, rowID: Int64) { record(table, rowID, existedBefore: true, existsAfter: false) }

    private mutating func record(_ table: String, _ rowID: Int64, existedBefore: Bool, existsAfter: Bool) {
        let last = levels.count - 1
        levels[last].rows[table, default: [:]][rowID, default: RowState(existedBefore: existedBefore, existsAfter: existsAfter)]
            .existsAfter = existsAfter
    }

    /// Marks `table` as changed in ways not described row by row.
    mutating func recordWholeTable(_ table: String) {
        levels[levels.count - 1].whollyChangedTables.insert(table)
    }

    /// Marks every table as possibly changed.
    mutating func recordAllTables() {
        levels[levels.count - 1].affectsAllTables = true
    }

    // MARK: Savepoints

    mutating func beginSavepoint(_ name: String) {
        levels.append(Level(savepointName: name.lowercased()))
    }

    /// `RELEASE name`: the levels from `name` up fold into the level below it.
    mutating func releaseSavepoint(_ name: String) {
        guard let index = levelIndex(of: name) else { return }
        while levels.count > index {
            let inner = levels.removeLast()
            levels[levels.count - 1].absorb(inner)
        }
    }

    /// `ROLLBACK TO name`: drops the events since `name` began; the savepoint stays open.
    mutating func rollbackToSavepoint(_ name: String) {
        guard let index = levelIndex(of: name) else { return }
        levels.removeLast(levels.count - index - 1)
        levels[index] = Level(savepointName: levels[index].savepointName)
    }

    private func levelIndex(of name: String) -> Int? {
        let lowered = name.lowercased()
        return levels.lastIndex { $0.savepointName == lowered }
    }

    // MARK: Transaction end

    /// The transaction's changes, all levels folded; the log is emptied.
    mutating func takeCommitted() -> StoreChanges {
        var all = levels[0]
        for level in levels.dropFirst() { all.absorb(level) }
        levels = [Level()]
        var tables: [String: TableChanges] = [:]
        for (table, rows) in all.rows {
            var changes = TableChanges()
            changes.inserted.reserveCapacity(rows.count)
            for (rowID, state) in rows {
                switch (state.existedBefore, state.existsAfter) {
                case (false, true): changes.inserted.insert(rowID)
                case (true, true): changes.updated.insert(rowID)
                case (true, false): changes.deleted.insert(rowID)
                case (false, false): break
                }
            }
            if !changes.isEmpty { tables[table] = changes }
        }
        for table in all.whollyChangedTables { tables[table, default: TableChanges()].isWhollyChanged = true }
        return StoreChanges(tableChanges: tables, affectsAllTables: all.affectsAllTables)
    }

    /// Forgets everything (rollback).
    mutating func discard() { levels = [Level()] }
}
