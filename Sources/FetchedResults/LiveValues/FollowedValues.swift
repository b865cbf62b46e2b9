import SQLiteStoreCore

/// A request's values as they follow the store: the engine that follows it and the values
/// taken from it so far. What a ``LiveValues`` iterator and a ``LiveResults`` both run on.
struct FollowedValues<M: StoreModel>: Sendable {
    /// The engine following the store for these values.
    let engine: FetchedResultsEngine<M>
    /// The values after the last change taken.
    private(set) var values: FetchedValues<M>

    /// What `take(orWake:)` found.
    enum Taken {
        /// A change that changes the values: its change set and the values it leads to.
        case change(FetchedValuesChange<M>)
        /// The engine stopped following the store.
        case end
        /// No change yet: `wake` will be called once one arrives.
        case nothing
    }

    /// Reads every value of `request` in `store` (without a batch size) and follows the store
    /// from that read on.
    static func start(_ request: StoreRequest<M>, in store: Store) async throws(FetchedResultsError) -> FollowedValues {
        var request = request
        request.batchSize = nil
        try FetchPlan.validate(request)
        let engine = FetchedResultsEngine<M>(store: store)
        return FollowedValues(engine: engine, values: try await engine.startWithEveryObject(request))
    }

    /// The change that inserts the first values into a list that has none.
    var firstChange: FetchedValuesChange<M> {
        FetchedValuesChange(
            changeSet: ChangeSet(sectionInserts: Array(0..<values.results.index.sectionCount)), values: values, isInitial: true)
    }

    /// Applies what the engine holds until a change changes the values; with nothing left,
    /// has `wake` called once something arrives. Throws the engine's failure.
    mutating func take(orWake wake: @escaping @Sendable () -> Void) throws(FetchedResultsError) -> Taken {
        while true {
            switch engine.hub.take(DeliveryHub<M>.owner, along: nil, orWake: wake).0 {
            case .change(var pending):
                let changeSet = pending.resolvedChangeSet()
                values = try values.applying(pending)
                if !changeSet.isEmpty { return .change(FetchedValuesChange(changeSet: changeSet, values: values, isInitial: false)) }
            case .failure(let error): throw error
            case .finished: return .end
            case .nothing: return .nothing
            }
        }
    }
}
