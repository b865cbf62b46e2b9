import Foundation
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// How the server stores one push when accounts share data: in whose data each change goes,
/// which changes it refuses, and which rows it places anew. It decides each change in the
/// push's order against the pushing account's rights as loaded under the accounts' locks
/// (``ChangeLog/storeShared(_:schemaVersion:account:sharing:)``):
///
/// - a change of a table that is not shared goes in the pusher's data;
/// - a change of a row of the pusher's data goes there, unless it moves the row under a parent
///   in another account's data;
/// - a change of a row of another account's data needs the `writer` role on the row's share,
///   and a move, the role on the share it moves to, in the same account's data;
/// - a new row goes in the data of its parent's account (named by its paths in the push), which
///   needs the `writer` role there, or in the pusher's data without a parent there.
///
/// A refused change is stored nowhere, and so are the later changes of a new row it refused.
struct SharedPushPlan {
    /// A change the server refuses.
    struct Refused {
        let change: SyncWireChange
        let row: SharedRowRef
        /// The account whose data holds the row (the pusher's for a new row, held nowhere).
        let owner: Int64
        let reason: SyncRefusal.Reason
        let message: String
    }

    /// A row the push places: new, or with a path set again.
    struct Placement {
        var links: [RowLink?]
        var parent: SharedRowRef?
        var isNew: Bool
    }

    /// The changes to store in each account's data, in the push's order.
    private(set) var stored: [Int64: [SyncWireChange]] = [:]
    private(set) var refused: [Refused] = []
    /// The rows to place, per account.
    private(set) var placements: [Int64: [SharedRowRef: Placement]] = [:]
    /// The accounts whose shareable rows the push changes: their members read them.
    private(set) var sharedOwners: Set<Int64> = []

    /// The rows the push stored in other accounts' data, each with its share.
    private(set) var sharedRows: [SharedRowRef: ShareName] = [:]

    private let pusher: Int64
    private let sharing: SyncSharing
    private let roles: [ShareName: SyncShareRole]
    private let claims: [SharedRowRef: ShareName]
    private var places: [SharedRowRef: [Int64: RowPlace]]
    /// New rows whose first change was refused, with the refusal.
    private var refusedNewRows: [SharedRowRef: (reason: SyncRefusal.Reason, message: String)] = [:]

    /// - Parameters:
    ///   - places: the places of the push's rows and of the parents its paths name, in the
    ///     data of the pusher, of the accounts that share with it, and of the claimed shares.
    ///   - roles: the pusher's role in each share it is a member of.
    ///   - claims: the rows the device holds through a share, each with the share: such a row
    ///     is looked for in that share's account's data only.
    ///   - refusedBefore: the changes of the push that were refused before (a push retried):
    ///     the later changes of a new row refused so are refused too.
    init(
        _ changes: [SyncWireChange], pusher: Int64, sharing: SyncSharing, places: [SharedRowRef: [Int64: RowPlace]],
        roles: [ShareName: SyncShareRole], claims: [SharedRowRef: ShareName], refusedBefore: [Refused] = []
    ) throws {
        self.pusher = pusher
        self.sharing = sharing
        self.places = places
        self.roles = roles
        self.claims = claims
        for refused in refusedBefore where places[refused.row] == nil && claims[refused.row] == nil {
            refusedNewRows[refused.row] = (refused.reason, refused.message)
        }
        let encoder = JSONEncoder()
        let rows = try changes.map { try Self.row(of: $0, sharing: sharing, encoder: encoder) }
        // A new row is placed by the latest value the push gives each of its paths.
        var pushedLinks: [SharedRowRef: [RowLink?]] = [:]
        for (change, row) in zip(changes, rows) {
            guard let row, let (index, link) = try Self.link(setBy: change, sharing: sharing, encoder: encoder) else { continue }
            var links = pushedLinks[row] ?? Array(repeating: nil, count: sharing.paths(of: row.table).count)
            links[index] = RowLink.latest(links[index], link)
            pushedLinks[row] = links
        }
        for (change, row) in zip(changes, rows) {
            guard let row else {
                stored[pusher, default: []].append(change)
                continue
            }
            try decide(change, row: row, pushedLinks: pushedLinks[row], encoder: encoder)
        }
    }

    /// The claims of a push: each row it says the device holds through a share, with the share
    /// (a claim naming no share the server could give is left out).
    static func claims(of push: SyncPushRequest, sharing: SyncSharing) throws -> [SharedRowRef: ShareName] {
        let encoder = JSONEncoder()
        var claims: [SharedRowRef: ShareName] = [:]
        for row in push.shared where sharing.shares(row.table) {
            guard let share = ShareName(parsing: row.share) else { continue }
            claims[SharedRowRef(table: sharing.canonicalName(of: row.table), key: try StoredJSON.text(of: row.key, encoder: encoder))] =
                share
        }
        return claims
    }

    /// The rows the push names: each change's row and each parent a path names.
    static func rows(of changes: [SyncWireChange], sharing: SyncSharing) throws -> Set<SharedRowRef> {
        let encoder = JSONEncoder()
        var rows: Set<SharedRowRef> = []
        for change in changes {
            guard let row = try row(of: change, sharing: sharing, encoder: encoder) else { continue }
            rows.insert(row)
            if let set = try link(setBy: change, sharing: sharing, encoder: encoder), let key = set.link.key {
                rows.insert(SharedRowRef(table: sharing.paths(of: row.table)[set.index].parent, key: key))
            }
        }
        return rows
    }

    private static func row(of change: SyncWireChange, sharing: SyncSharing, encoder: JSONEncoder) throws -> SharedRowRef? {
        guard sharing.shares(change.table) else { return nil }
        return SharedRowRef(table: sharing.canonicalName(of: change.table), key: try StoredJSON.text(of: change.key, encoder: encoder))
    }

    /// The path a change sets and the link it gives it; `nil` when the change sets no path.
    private static func link(
        setBy change: SyncWireChange, sharing: SyncSharing, encoder: JSONEncoder
    ) throws -> (index: Int, link: RowLink)? {
        guard case .set(let column, let value) = change.operation,
            let index = sharing.paths(of: change.table).firstIndex(where: { $0.column == column })
        else { return nil }
        let key = value == .null ? nil : try StoredJSON.text(of: value, encoder: encoder)
        return (index, RowLink(key: key, hlc: change.hlc, device: change.device))
    }

    /// The parent that `links` name: the first path's with a key.
    private func parent(of table: String, links: [RowLink?]) -> SharedRowRef? {
        let paths = sharing.paths(of: table)
        for (path, link) in zip(paths, links) {
            if let key = link?.key { return SharedRowRef(table: path.parent, key: key) }
        }
        return nil
    }

    /// The place of `row` as the pusher sees it: in its own data first, else in the data of
    /// the account with the lowest id that shares with it.
    private func place(of row: SharedRowRef) -> RowPlace? {
        if let claim = claims[row] { return places[row]?[claim.owner] }
        guard let candidates = places[row] else { return nil }
        return candidates[pusher] ?? candidates.min { $0.key < $1.key }?.value
    }

    /// The root `row` has in `owner`'s data as the plan places rows now: the root row its
    /// parents lead to, walked with a visited set (a loop has none), `nil` when the walk ends at
    /// a row the account's data does not hold.
    private func root(of row: SharedRowRef, in owner: Int64) -> String? {
        var current = row
        var seen: Set<SharedRowRef> = []
        while seen.insert(current).inserted, let place = places[current]?[owner] {
            if sharing.roots.contains(current.table) { return current.rootName }
            guard let parent = place.parent else { return nil }
            current = parent
        }
        return nil
    }

    private static let notSharedMessage = "the row belongs to another account's data, which is not shared with this account"

    private func canWrite(_ owner: Int64, root: String?) -> Bool {
        owner == pusher || root.map { roles[ShareName(owner: owner, root: $0)] == .writer } ?? false
    }

    private func refusal(owner: Int64, root: String?) -> (SyncRefusal.Reason, String) {
        if let root, roles[ShareName(owner: owner, root: root)] == .reader {
            return (.readOnly, "the row belongs to a share this account reads only")
        }
        return (.notShared, Self.notSharedMessage)
    }

    private mutating func decide(_ change: SyncWireChange, row: SharedRowRef, pushedLinks: [RowLink?]?, encoder: JSONEncoder) throws {
        if let first = refusedNewRows[row] { return refuse(change, row, pusher, first.reason, first.message) }
        guard let place = place(of: row) else {
            if let claim = claims[row] {
                // The device holds the row through a share whose account's data has no such row.
                return refuse(change, row, claim.owner, .notShared, Self.notSharedMessage)
            }
            return placeNew(change, row: row, links: pushedLinks ?? [])
        }
        let owner = place.owner
        let currentRoot = root(of: row, in: owner)
        guard canWrite(owner, root: currentRoot) else {
            let (reason, message) = refusal(owner: owner, root: currentRoot)
            return refuse(change, row, owner, reason, message)
        }
        if let (index, link) = try Self.link(setBy: change, sharing: sharing, encoder: encoder) {
            var links = place.links
            if links.count < sharing.paths(of: row.table).count {
                links += Array(repeating: nil, count: sharing.paths(of: row.table).count - links.count)
            }
            links[index] = RowLink.latest(links[index], link)
            let parent = parent(of: row.table, links: links)
            if parent != place.parent {
                // A move: under a parent in the same account's data, to a root writable there.
                if owner == pusher, let parent, places[parent]?[pusher] == nil, let elsewhere = self.place(of: parent),
                    elsewhere.owner != pusher
                {
                    return refuse(change, row, owner, .crossesAccounts, "the change moves the row into another account's data")
                }
                if owner != pusher {
                    guard let parent, places[parent]?[owner] != nil else {
                        return refuse(change, row, owner, .crossesAccounts, "the change moves the row out of its account's data")
                    }
                    places[row]?[owner]?.parent = parent
                    let newRoot = root(of: row, in: owner)
                    guard canWrite(owner, root: newRoot) else {
                        places[row]?[owner] = place
                        let (reason, message) = refusal(owner: owner, root: newRoot)
                        return refuse(change, row, owner, reason, message)
                    }
                }
            }
            places[row, default: [:]][owner] = RowPlace(owner: owner, links: links, parent: parent)
            let isNew = placements[owner]?[row]?.isNew ?? false
            placements[owner, default: [:]][row] = Placement(links: links, parent: parent, isNew: isNew)
        }
        store(change, row: row, in: owner)
    }

    /// A row the server has not placed: in its parent's account's data, or the pusher's.
    private mutating func placeNew(_ change: SyncWireChange, row: SharedRowRef, links: [RowLink?]) {
        let parent = parent(of: row.table, links: links)
        let parentPlace = parent.flatMap { place(of: $0) }
        let owner = parentPlace?.owner ?? pusher
        places[row, default: [:]][owner] = RowPlace(owner: owner, links: links, parent: parent)
        let newRoot = root(of: row, in: owner)
        if owner != pusher, !canWrite(owner, root: newRoot) {
            places[row]?[owner] = nil
            let (reason, message) = refusal(owner: owner, root: newRoot)
            refusedNewRows[row] = (reason, message)
            return refuse(change, row, pusher, reason, message)
        }
        placements[owner, default: [:]][row] = Placement(links: links, parent: parent, isNew: true)
        store(change, row: row, in: owner)
    }

    /// Stores `change` in `owner`'s data under its table's name as the declaration spells it,
    /// so that the server finds a row's changes by the name it places the row under.
    private mutating func store(_ change: SyncWireChange, row: SharedRowRef, in owner: Int64) {
        var change = change
        change.table = sharing.canonicalName(of: change.table)
        stored[owner, default: []].append(change)
        sharedOwners.insert(owner)
        if owner != pusher, let root = root(of: row, in: owner) { sharedRows[row] = ShareName(owner: owner, root: root) }
    }

    private mutating func refuse(
        _ change: SyncWireChange, _ row: SharedRowRef, _ owner: Int64, _ reason: SyncRefusal.Reason, _ message: String
    ) {
        refused.append(Refused(change: change, row: row, owner: owner, reason: reason, message: message))
    }
}
