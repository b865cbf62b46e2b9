import SQLiteStoreCore

#if canImport(SwiftUI)
import SwiftUI
#endif

/// Declares a request's live values in one line, in a SwiftUI view as SwiftData's `@Query`
/// does, or in any main-actor type: the property is every object of the results, in order
/// (a ``FetchedValues``, a random-access collection of models), kept current as
/// transactions commit.
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
/// else `Store.default`. `$items` is the ``LiveValuesObserver``: its `failure`, `isLoading`,
/// `lastChange`, and its `request`, which you may set. In a view, the values are read once
/// and kept across the view's updates (the property holds them as `@State` does); the
/// instances SwiftUI makes and drops cost nothing, as nothing is read before the first use.
/// The request is the first instance's too: to follow another one (a parent's new search
/// term), set `$items.request`.
///
/// Every object is in memory, as with `@Query`. For a huge list that shows a screenful at a
/// time, hold a ``LiveResults`` (read a batch at a time) in a view model instead.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
@propertyWrapper
public struct LiveQuery<M: StoreModel> {
    /// Points at the observer the values come from: the one made here, or, in a view,
    /// the one SwiftUI kept from the first instance.
    private let current: ObserverSlot<M>
    #if canImport(SwiftUI)
    @SwiftUI.State private var kept: LiveValuesObserver<M>
    @SwiftUI.Environment(\.store) private var environmentStore
    #endif

    /// The live values of `request` in `store`; without one, in the SwiftUI environment's
    /// store, else in `Store.default`.
    public init(_ request: StoreRequest<M>, in store: Store? = nil) {
        let observer = LiveValuesObserver(request, in: store)
        current = ObserverSlot(observer)
        #if canImport(SwiftUI)
        _kept = SwiftUI.State(initialValue: observer)
        #endif
    }

    /// Every object of the results, in order; empty until the first values arrive.
    public var wrappedValue: FetchedValues<M> { current.observer.values }

    /// The observer behind the values: failure, loading state, last change set, request.
    public var projectedValue: LiveValuesObserver<M> { current.observer }
}

/// The observer a `LiveQuery` reads, which a SwiftUI update may replace by the kept one.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
private final class ObserverSlot<M: StoreModel> {
    var observer: LiveValuesObserver<M>
    init(_ observer: LiveValuesObserver<M>) { self.observer = observer }
}

#if canImport(SwiftUI)
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
extension LiveQuery: DynamicProperty {
    /// Reads the observer SwiftUI kept, in the environment's store unless one was given.
    public nonisolated func update() {
        MainActor.assumeIsolated {
            current.observer = kept
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
