/// Accumulates the row events of the open transaction, in order, and turns them into
/// `StoreChanges` at commit.
///
/// Recording an event is one array append: the log is a list of events, so that taking back
/// a statement SQLite undid (a failure under `ABORT`) or a `ROLLBACK TO` is cutting the list
/// back to where the statement or savepoint began. Events are folded into each row's state
/// before and after the transaction only at commit, and only when someone wants the changes.
struct RowChangeLog {
    private enum Kind: UInt8 {
        case insert, update, delete, wholeTable, allTables

        var isRowEvent: Bool { self == .insert || self == .update || self == .delete }
    }

    /// One event: 16 bytes, the table named by its index in `tables`.
    private struct Event {
        var rowID: Int64
        var table: Int32
        var kind: Kind
    }

    private var events: [Event] = []
    /// Where the running statement's events begin.
    private var statementStart = 0
    /// Open savepoints, innermost last, with where their events begin.
    private var savepoints: [(name: String, start: Int)] = []
    /// The (ASCII-folded, `sqliteIdentifierFolded`) names of the tables events name, and each one's index.
    private var tables: [String] = []
    private var tableIndexes: [String: Int32] = [:]
    /// The table of the last event, looked up before hashing: statements write one table at a time.
    private var lastTable: (name: String, index: Int32)?

    /// Whether no event is recorded.
    var isEmpty: Bool { events.isEmpty }

    // MARK: Row events

    mutating func recordInsert(table: String, rowID: Int64) { append(.insert, table, rowID) }
    mutating func recordUpdate(table: String, rowID: Int64) { append(.update, table, rowID) }
    mutating func recordDelete(table: String, rowID: Int64) { append(.delete, table, rowID) }

    /// Marks `table` as changed in ways not described row by row.
    mutating func recordWholeTable(_ table: String) { append(.wholeTable, table, 0) }

    /// Marks every table as possibly changed.
    mutating func recordAllTables() { events.append(Event(rowID: 0, table: -1, kind: .allTables)) }

    private mutating func append(_ kind: Kind, _ table: String, _ rowID: Int64) {
        events.append(Event(rowID: rowID, table: index(of: table), kind: kind))
    }

    private mutating func index(of table: String) -> Int32 {
        if let lastTable, lastTable.name == table { return lastTable.index }
        let index =
            tableIndexes[table]
            ?? {
                tables.append(table)
                tableIndexes[table] = Int32(tables.count - 1)
                return Int32(tables.count - 1)
            }()
        lastTable = (table, index)
        return index
    }

    // MARK: The running statement

    /// Whether the running statement recorded anything.
    var statementHasEvents: Bool { events.count > statementStart }

    /// Keeps the running statement's events: it succeeded, or failed keeping its changes (`FAIL`).
    mutating func keepStatement() {
        statementStart = events.count
    }

    /// Takes back the running statement's events: SQLite undid the statement (`ABORT`).
    mutating func undoStatement() {
        events.removeSubrange(statementStart...)
    }

    /// Up to `limit` rows whose existence the running statement changed, each with whether it
    /// exists after the statement's events: looking one up in the database tells whether SQLite
    /// kept the statement. Empty when the statement only updated rows.
    ///
    /// A row's first event in the statement tells whether it existed before (SQLite reports an
    /// insert only for a rowid that was free), its last whether it exists after.
    func rowsWhoseExistenceTheStatementChanged(limit: Int) -> [(table: String, rowID: Int64, exists: Bool)] {
        var states: [RowKey: (existedBefore: Bool, existsAfter: Bool)] = [:]
        var order: [RowKey] = []
        for event in events[statementStart...] where event.kind.isRowEvent {
            let key = RowKey(table: event.table, rowID: event.rowID)
            if states[key] == nil {
                order.append(key)
                states[key] = (event.kind != .insert, true)
            }
            states[key]?.existsAfter = event.kind != .delete
        }
        var rows: [(table: String, rowID: Int64, exists: Bool)] = []
        for key in order where rows.count < limit {
            guard let state = states[key], state.existedBefore != state.existsAfter else { continue }
            rows.append((tables[Int(key.table)], key.rowID, state.existsAfter))
        }
        return rows
    }

    private struct RowKey: Hashable {
        let table: Int32
        let rowID: Int64
    }

    // MARK: Savepoints

    mutating func beginSavepoint(_ name: String) {
        savepoints.append((name, events.count))
    }

    /// `RELEASE name`: the savepoints from `name` up end; their events stay.
    mutating func releaseSavepoint(_ name: String) {
        guard let index = savepointIndex(of: name) else { return }
        savepoints.removeSubrange(index...)
    }

    /// `ROLLBACK TO name`: drops the events since `name` began; the savepoint stays open.
    mutating func rollbackToSavepoint(_ name: String) {
        guard let index = savepointIndex(of: name) else { return }
        savepoints.removeSubrange((index + 1)...)
        events.removeSubrange(savepoints[index].start...)
        statementStart = min(statementStart, events.count)
    }

    private func savepointIndex(of name: String) -> Int? {
        return savepoints.lastIndex { $0.name.matchesSQLiteIdentifier(name) }
    }

    // MARK: Transaction end

    /// The transaction's changes; the log is emptied.
    mutating func takeCommitted() -> StoreChanges {
        defer { discard() }
        return folded()
    }

    /// The changes of the transaction so far, the log left as it is.
    func folded() -> StoreChanges {
        var folds = tables.map { _ in TableFold() }
        var eventCounts = [Int](repeating: 0, count: tables.count)
        for event in events where event.table >= 0 { eventCounts[Int(event.table)] += 1 }
        for (table, count) in eventCounts.enumerated() where count > 0 { folds[table].reserve(count) }
        var affectsAllTables = false
        for event in events {
            switch event.kind {
            case .insert: folds[Int(event.table)].record(event.rowID, existedBefore: false, existsAfter: true)
            case .update: folds[Int(event.table)].record(event.rowID, existedBefore: true, existsAfter: true)
            case .delete: folds[Int(event.table)].record(event.rowID, existedBefore: true, existsAfter: false)
            case .wholeTable: folds[Int(event.table)].changes.isWhollyChanged = true
            case .allTables: affectsAllTables = true
            }
        }
        var changes: [String: TableChanges] = [:]
        for (index, fold) in folds.enumerated() {
            let tableChanges = fold.finished()
            if !tableChanges.isEmpty { changes[tables[index]] = tableChanges }
        }
        return StoreChanges(tableChanges: changes, affectsAllTables: affectsAllTables)
    }

    /// Forgets everything (rollback, or a commit nobody wants the changes of).
    mutating func discard() {
        events.removeAll(keepingCapacity: events.count <= Self.keptCapacity)
        statementStart = 0
        savepoints.removeAll()
        if tables.count > Self.keptTables {
            tables.removeAll()
            tableIndexes.removeAll()
            lastTable = nil
        }
    }

    /// Events whose room is kept between transactions (1 MiB); a larger transaction's is freed.
    private static let keptCapacity = 65_536
    /// Table names remembered between transactions, beyond which they are forgotten.
    private static let keptTables = 256
}

/// One table's events folded into its changes: while it has only inserts (the bulk-insert case),
/// straight into `inserted`; from its first other event on, through each row's state.
private struct TableFold {
    var changes = TableChanges()
    /// Each row's existence before the transaction and after its last event; `nil` while only inserts were seen.
    private var states: [Int64: RowChangeLog.RowState]?

    mutating func reserve(_ count: Int) { changes.inserted.reserveCapacity(count) }

    mutating func record(_ rowID: Int64, existedBefore: Bool, existsAfter: Bool) {
        if states == nil, !existedBefore, changes.inserted.insert(rowID).inserted { return }
        if states == nil { startStates() }
        if let previous = states?.updateValue(RowChangeLog.RowState(existedBefore: existedBefore, existsAfter: existsAfter), forKey: rowID)
        {
            states?[rowID]?.existedBefore = previous.existedBefore
        }
    }

    /// Moves the rows inserted so far into `states`.
    private mutating func startStates() {
        var states: [Int64: RowChangeLog.RowState] = [:]
        for rowID in changes.inserted { states[rowID] = RowChangeLog.RowState(existedBefore: false, existsAfter: true) }
        changes.inserted = []
        self.states = states
    }

    func finished() -> TableChanges {
        guard let states else { return changes }
        var result = TableChanges(isWhollyChanged: changes.isWhollyChanged)
        for (rowID, state) in states {
            switch (state.existedBefore, state.existsAfter) {
            case (false, true): result.inserted.insert(rowID)
            case (true, true): result.updated.insert(rowID)
            case (true, false): result.deleted.insert(rowID)
            case (false, false): break
            }
        }
        return result
    }
}

extension RowChangeLog {
    /// A row's existence before the transaction and after its last event.
    struct RowState: Equatable {
        var existedBefore: Bool
        var existsAfter: Bool
    }
}
