import Foundation
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// A device's subscriptions, checked against the server's subsets: which of them cover a row.
struct SubscriptionCoverage: Sendable {
    /// One subscription with its subset and its parameter as the server compares it.
    struct Resolved: Sendable {
        let id: Int64
        let subset: SyncSubset
        /// The root a `root` subscription names (`table:key`).
        let root: String?
        /// The value a `rows` subscription's column must hold.
        let value: SyncWireValue?
    }

    /// The most subscriptions one device may send.
    static let limit = 64

    let subscriptions: [Resolved]

    /// The coverage of subscriptions already checked.
    init(resolved subscriptions: [Resolved]) {
        self.subscriptions = subscriptions
    }

    /// The device's `subscriptions`, each one of `subsets` with a parameter where it takes one.
    ///
    /// - Throws: ``SyncFailure`` `.malformed` for a name the server does not declare, a missing
    ///   or unneeded parameter, a root key that is `NULL`, two subscriptions with one id, or more
    ///   than ``limit`` of them.
    init(_ subscriptions: [SyncSubscription], subsets: [SyncSubset]) throws {
        guard subscriptions.count <= Self.limit else {
            throw SyncFailure(.malformed, "a device sends at most \(Self.limit) subscriptions, not \(subscriptions.count)")
        }
        guard Set(subscriptions.map(\.id)).count == subscriptions.count else {
            throw SyncFailure(.malformed, "two subscriptions have one id")
        }
        let encoder = JSONEncoder()
        self.subscriptions = try subscriptions.map { subscription in
            guard let subset = subsets.first(where: { $0.name == subscription.name }) else {
                throw SyncFailure(
                    .malformed,
                    "no subscription \"\(subscription.name)\" on this server (declared: \(subsets.map(\.name).joined(separator: ", ")))")
            }
            guard subset.takesParameter == (subscription.parameter != nil) else {
                throw SyncFailure(
                    .malformed, "subscription \"\(subset.name)\" \(subset.takesParameter ? "takes a parameter" : "takes no parameter")")
            }
            switch subset.kind {
            case .ownRoots:
                return Resolved(id: subscription.id, subset: subset, root: nil, value: nil)
            case .root(let table):
                guard let key = subscription.parameter, key != .null else {
                    throw SyncFailure(.malformed, "subscription \"\(subset.name)\" names a root row's key, not NULL")
                }
                let root = SharedRowRef(table: table, key: try StoredJSON.text(of: key, encoder: encoder)).rootName
                return Resolved(id: subscription.id, subset: subset, root: root, value: nil)
            case .rows:
                return Resolved(id: subscription.id, subset: subset, root: nil, value: subscription.parameter)
            }
        }
    }

    /// The ids of the subscriptions that cover a row of `table` that `account` may read, in the
    /// data of `owner`, under `root` (`nil`: none), whose winning changes are `changes`.
    func covering(account: Int64, owner: Int64, table: String, root: String?, changes: [SyncWireChange]) -> [Int64] {
        subscriptions.filter { subscription in
            switch subscription.subset.kind {
            case .ownRoots:
                return owner == account && root != nil
            case .root:
                return root != nil && root == subscription.root
            case .rows:
                return changes.contains { change in
                    guard case .set(let column, let value) = change.operation else { return false }
                    return value == subscription.value && subscription.subset.looksAt(table: table, column: column)
                }
            }
        }.map(\.id)
    }
}
