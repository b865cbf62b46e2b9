/// Accumulates the row events of the open transaction, level by level for savepoints,
/// and turns them into `StoreChanges` at commit.
///
/// The events of the running statement can be taken back: each event notes what it replaced
/// in an undo journal, emptied when the statement ends, so that a statement SQLite undoes
/// (a failure under `ABORT`) leaves no trace, at the cost of one array append per event.
struct RowChangeLog {
    /// A row's existence before the transaction (or savepoint level) and after its last event.
    struct RowState: Equatable {
        var existedBefore: Bool
        var existsAfter: Bool
    }

    /// What one event of the running statement replaced, to put it back.
    private enum Undo {
        case row(table: String, rowID: Int64, previous: RowState?)
        case wholeTable(String, wasMarked: Bool)
        case allTables(wasMarked: Bool)
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
    private var statementUndo: [Undo] = []

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
        let fresh = RowState(existedBefore: existedBefore, existsAfter: existsAfter)
        // One hash lookup for a row's first event (the common case), two for later ones.
        if let previous = levels[last].rows[table, default: [:]].updateValue(fresh, forKey: rowID) {
            levels[last].rows[table]?[rowID] = RowState(existedBefore: previous.existedBefore, existsAfter: existsAfter)
            statementUndo.append(.row(table: table, rowID: rowID, previous: previous))
        } else {
            statementUndo.append(.row(table: table, rowID: rowID, previous: nil))
        }
    }

    /// Marks `table` as changed in ways not described row by row.
    mutating func recordWholeTable(_ table: String) {
        let wasMarked = !levels[levels.count - 1].whollyChangedTables.insert(table).inserted
        statementUndo.append(.wholeTable(table, wasMarked: wasMarked))
    }

    /// Marks every table as possibly changed.
    mutating func recordAllTables() {
        statementUndo.append(.allTables(wasMarked: levels[levels.count - 1].affectsAllTables))
        levels[levels.count - 1].affectsAllTables = true
    }

    // MARK: The running statement

    /// Whether the running statement recorded anything.
    var statementHasEvents: Bool { !statementUndo.isEmpty }

    /// Keeps the running statement's events: it succeeded, or failed keeping its changes (`FAIL`).
    mutating func keepStatement() {
        statementUndo.removeAll(keepingCapacity: true)
    }

    /// Takes back the running statement's events: SQLite undid the statement (`ABORT`).
    mutating func undoStatement() {
        let last = levels.count - 1
        while let undo = statementUndo.popLast() {
            switch undo {
            case .row(let table, let rowID, let previous):
                levels[last].rows[table]?[rowID] = previous
                if levels[last].rows[table]?.isEmpty == true { levels[last].rows[table] = nil }
            case .wholeTable(let table, let wasMarked):
                if !wasMarked { levels[last].whollyChangedTables.remove(table) }
            case .allTables(let wasMarked):
                levels[last].affectsAllTables = wasMarked
            }
        }
    }

    /// Up to `limit` rows whose existence the running statement changed, each with whether it
    /// exists after the statement's events: looking one up in the database tells whether SQLite
    /// kept the statement. Empty when the statement only updated rows.
    func rowsWhoseExistenceTheStatementChanged(limit: Int) -> [(table: String, rowID: Int64, exists: Bool)] {
        let last = levels.count - 1
        var existedBefore: [RowKey: Bool] = [:]
        // Replayed oldest first: the first event of a row says whether it existed before the statement.
        for undo in statementUndo {
            guard case .row(let table, let rowID, let previous) = undo else { continue }
            let key = RowKey(table: table, rowID: rowID)
            if existedBefore[key] == nil {
                existedBefore[key] = previous?.existsAfter ?? (levels[last].rows[table]?[rowID]?.existedBefore ?? true)
            }
        }
        var rows: [(table: String, rowID: Int64, exists: Bool)] = []
        for (key, existed) in existedBefore where rows.count < limit {
            guard let now = levels[last].rows[key.table]?[key.rowID]?.existsAfter, now != existed else { continue }
            rows.append((key.table, key.rowID, now))
        }
        return rows
    }

    private struct RowKey: Hashable {
        let table: String
        let rowID: Int64
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
        statementUndo.removeAll(keepingCapacity: true)
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
    mutating func discard() {
        levels = [Level()]
        statementUndo.removeAll(keepingCapacity: true)
    }
}
