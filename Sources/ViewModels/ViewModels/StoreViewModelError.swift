import SQLiteStoreCore

/// Why a ``StoreViewModel`` could not do what was asked.
public enum StoreViewModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store the view model was made with has been released.
    case storeReleased
    /// The object no longer exists in the store.
    case objectDeleted(ObjectID)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .storeReleased: "the store of the view model has been released"
        case .objectDeleted(let id): "\(id) no longer exists"
        }
    }
}
