/// The workloads of the suite, named as in the results.
enum Workload: String, CaseIterable {
    /// N models inserted in one transaction.
    case insert
    /// `insert` with one change subscriber attached.
    case notifyOverhead
    /// All N rows ordered by score into models.
    case fetchAll
    /// 50 rows at offset N/2 ordered by score, 1,000 times.
    case fetchPage
    /// One transaction moving one row of the live query; time to the change set.
    case observeUpdate
    /// One transaction inserting one row into the live query; time to the change set.
    case observeInsert
    /// One transaction deleting one row of the live query; time to the change set.
    case observeDelete
    /// One transaction changing 1,000 random rows; time to the change set.
    case observeBulk
    /// One transaction renaming a list of 100 items in a live query ordered by list name; time to the change set.
    case observeRelated
    /// Peak resident memory of a list over all N rows.
    case frcMemory
    /// `frcMemory` ordered by a short text key and an integer key (SQLiteStore only).
    case frcMemoryText
    /// `frcMemory` ordered by a text key longer than 16 bytes and an integer key (SQLiteStore only).
    case frcMemoryLongText
    /// A live list of the flagged rows by score: from its creation to its first 50 models in hand.
    case firstScreen
    /// `firstScreen` by category, then score, in sections by category.
    case firstScreenSectioned
    /// `firstScreen` by title, which no index serves (SQLite's top-N sort).
    case firstScreenUnindexed
    /// The live list of `firstScreen`: from its creation to holding every row.
    case completeResults

    /// Whether this is one of the memory workloads, which measure resident memory once.
    var isMemory: Bool { self == .frcMemory || self == .frcMemoryText || self == .frcMemoryLongText }

    /// Whether this is one of the live-query workloads, which time one write transaction.
    var isObserve: Bool {
        switch self {
        case .observeUpdate, .observeInsert, .observeDelete, .observeBulk, .observeRelated: true
        case .insert, .notifyOverhead, .fetchAll, .fetchPage, .frcMemory, .frcMemoryText, .frcMemoryLongText, .firstScreen,
            .firstScreenSectioned, .firstScreenUnindexed, .completeResults:
            false
        }
    }
}

/// The table sizes of the suite.
enum RowCount: Int, CaseIterable {
    case tenThousand = 10_000
    case hundredThousand = 100_000
    case million = 1_000_000

    /// `10k`, `100k` or `1M`, as in the benchmark names.
    var label: String {
        switch self {
        case .tenThousand: "10k"
        case .hundredThousand: "100k"
        case .million: "1M"
        }
    }
}
