import SQLiteStoreCore

#if canImport(SwiftUI)
import SwiftUI
#endif

/// Declares a request's live results in one line, in a SwiftUI view as SwiftData's `@Query`
/// does, or in any main-actor type: the property is a ``LiveResults``, a random-access
/// collection of every object of the results, in order, kept current as transactions commit.
///
/// ```swift
/// struct ItemsView: View {
///     @LiveQuery(StoreRequest<Item>().order { $0.title.ascending }) var items
///
///     var body: some View {
///         List(items) { item in Text(item.title) }
///     }
/// }
/// ```
///
/// Without `in:`, the store is the SwiftUI environment's (`.environment(\.store, store)`),
/// else `Store.default`. The property is the results themselves: `items.failure`,
/// `items.isLoading`, `items.lastChange`, and `items.request`, which you may set. In a view,
/// the results are read once and kept across the view's updates (the property holds them as
/// `@State` does); the instances SwiftUI makes and drops cost nothing, as nothing is read
/// before the first use. The request is the first instance's too: to follow another one (a
/// parent's new search term), set `items.request`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
@propertyWrapper
public struct LiveQuery<M: StoreModel> {
    /// Points at the results: the ones made here, or, in a view, the ones SwiftUI kept from
    /// the first instance.
    private let current: ResultsSlot<M>
    #if canImport(SwiftUI)
    @SwiftUI.State private var kept: LiveResults<M>
    @SwiftUI.Environment(\.store) private var environmentStore
    #endif

    /// The live results of `request` in `store`; without one, in the SwiftUI environment's
    /// store, else in `Store.default`.
    public init(_ request: StoreRequest<M>, in store: Store? = nil) {
        let results = LiveResults(request, in: store, isolation: MainActor.shared)
        current = ResultsSlot(results)
        #if canImport(SwiftUI)
        _kept = SwiftUI.State(initialValue: results)
        #endif
    }

    /// Every object of the results, in order; empty until the first values arrive.
    public var wrappedValue: LiveResults<M> { current.results }
}

/// The results a `LiveQuery` reads, which a SwiftUI update may replace by the kept ones.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
private final class ResultsSlot<M: StoreModel> {
    var results: LiveResults<M>
    init(_ results: LiveResults<M>) { self.results = results }
}

#if canImport(SwiftUI)
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
extension LiveQuery: DynamicProperty {
    /// Reads the results SwiftUI kept, in the environment's store unless one was given.
    public nonisolated func update() {
        MainActor.assumeIsolated {
            current.results = kept
            if let environmentStore { kept.adopt(environmentStore) }
        }
    }
}

extension EnvironmentValues {
    /// The store `@LiveQuery` follows when it is given none: `nil` unless set
    /// (`.environment(\.store, store)`), and then `Store.default` serves.
    public var store: Store? {
        get { self[StoreEnvironmentKey.self] }
        set { self[StoreEnvironmentKey.self] = newValue }
    }
}

private struct StoreEnvironmentKey: EnvironmentKey {
    static let defaultValue: Store? = nil
}
#endif
