import Foundation
import SQLiteStoreCore

/// Why a fetched-results controller cannot do what was asked.
public enum FetchedResultsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request sections by a key but does not sort by that key first.
    case sectionKeyNotFirstSortKey(sectionKey: String, firstSortKey: String?)
    /// An index path outside the results.
    case indexPathOutOfBounds(IndexPath)
    /// The object at an index path was deleted after the results the controller shows; a
    /// change set that removes it is on its way.
    case objectDeleted(ObjectID)
    /// The store failed.
    case store(StoreError)

    public var description: String {
        switch self {
        case .sectionKeyNotFirstSortKey(let key, let first):
            "the request sections by \(key) but sorts first by \(first ?? "nothing"); sort by the section key first"
        case .indexPathOutOfBounds(let path): "index path \(path) is outside the fetched results"
        case .objectDeleted(let id): "\(id) was deleted since the results were last delivered"
        case .store(let error): error.description
        }
    }

    /// `error` as a `FetchedResultsError`.
    static func wrap(_ error: any Error) -> FetchedResultsError {
        if let error = error as? FetchedResultsError { return error }
        return .store(error as? StoreError ?? StoreError(code: .error, message: "\(error)"))
    }
}
