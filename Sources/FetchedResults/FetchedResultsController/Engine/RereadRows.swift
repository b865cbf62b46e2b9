import SQLiteStoreCore

/// The rows of the results that a transaction made the engine read again, by rowid: each
/// one's sort keys and fingerprint, and its model when the plan loads objects.
///
/// The rows and the models are kept apart so that the rows' dictionary is not generic over
/// the model: with a row and its model in one `FetchPlan<M>` value, every insertion and
/// lookup went through the run-time metadata of a generic type, a fifth of a related
/// rename's engine time at a million rows.
struct RereadRows<M: StoreModel> {
    /// What the index keeps of each row read.
    var rows: [Int64: RereadRow] = [:]
    /// The rows' models, when the plan loads objects.
    var models: [Int64: M] = [:]

    /// Adds `other`'s rows and models, keeping these where both have a row.
    mutating func merge(_ other: RereadRows) {
        if rows.isEmpty {
            self = other
            return
        }
        rows.merge(other.rows) { own, _ in own }
        models.merge(other.models) { own, _ in own }
    }
}

/// What the index keeps of one row read again: where it sorts and what it holds.
struct RereadRow: Sendable {
    let keys: SortKeys
    let fingerprint: UInt64
}
