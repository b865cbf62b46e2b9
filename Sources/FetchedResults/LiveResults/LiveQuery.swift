import SQLiteStoreCore

/// Declares a property holding the ``LiveResults`` of a request, in an `@Observable` view
/// model or a UIKit controller, in the spirit of SwiftData's `@Query`:
///
/// ```swift
/// @MainActor @Observable final class TodayViewModel {
///     @ObservationIgnored @LiveQuery var open: LiveResults<Item>
///
///     init(store: Store) {
///         _open = LiveQuery(StoreRequest<Item>().filter(Column("done") == false), in: store)
///     }
/// }
/// ```
///
/// `@ObservationIgnored` is needed in an `@Observable` class (the macro and a property
/// wrapper cannot both own the storage) and loses nothing: the live results are observable
/// themselves, precisely. `$open` is the controller, for `changes()` or `waitUntilCurrent()`.
/// In a SwiftUI view, keep the results in `@State` instead
/// (`@State private var open = LiveResults(request, in: store)`): the results are fetched
/// at the first read, so the instances SwiftUI makes and drops cost nothing.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
@propertyWrapper
public struct LiveQuery<M: StoreModel> {
    /// The live results.
    public let wrappedValue: LiveResults<M>

    /// The live results of `request` in `store`, fetched at the first read.
    public init(_ request: StoreRequest<M>, in store: Store) {
        wrappedValue = LiveResults(request, in: store)
    }

    /// The controller behind the results.
    public var projectedValue: FetchedResultsController<M> { wrappedValue.controller }
}
