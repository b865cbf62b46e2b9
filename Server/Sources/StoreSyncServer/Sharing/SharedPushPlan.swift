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
/// - a new row goes in the data of its parent's account (named by its path in the push), which
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

    /// A row the push places: new, or moved under another parent.
    struct Placement {
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
    init(
        _ changes: [SyncWireChange], pusher: Int64, sharing: SyncSharing, places: [SharedRowRef: [Int64: RowPlace]],
        roles: [ShareName: SyncShareRole], claims: [SharedRowRef: ShareName]
    ) throws {
        self.pusher = pusher
        self.sharing = sharing
        self.places = places
        self.roles = roles
        self.claims = claims
        let encoder = JSONEncoder()
        let rows = try changes.map { try Self.row(of: $0, sharing: sharing, encoder: encoder) }
        // A new row is placed by the first parent its path names anywhere in the push.
        var firstParents: [SharedRowRef: SharedRowRef?] = [:]
        for (change, row) in zip(changes, rows) {
            guard let row, firstParents[row] == nil, let parent = try Self.parent(setBy: change, sharing: sharing, encoder: encoder)
            else { continue }
            firstParents[row] = parent
        }
        for (change, row) in zip(changes, rows) {
            guard let row else {
                stored[pusher, default: []].append(change)
                continue
            }
            try decide(change, row: row, firstParent: firstParents[row] ?? nil, encoder: encoder)
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
            if case let parent?? = try parent(setBy: change, sharing: sharing, encoder: encoder) { rows.insert(parent) }
        }
        return rows
    }

    private static func row(of change: SyncWireChange, sharing: SyncSharing, encoder: JSONEncoder) throws -> SharedRowRef? {
        guard sharing.shares(change.table) else { return nil }
        return SharedRowRef(table: sharing.canonicalName(of: change.table), key: try StoredJSON.text(of: change.key, encoder: encoder))
    }

    /// The parent a change sets its row's path to: `.some(nil)` for none (a `NULL`), `nil`
    /// when the change does not set the path.
    private static func parent(setBy change: SyncWireChange, sharing: SyncSharing, encoder: JSONEncoder) throws -> SharedRowRef?? {
        guard case .set(let column, let value) = change.operation, let path = sharing.path(of: change.table), path.column == column
        else { return nil }
        if value == .null { return .some(nil) }
        return .some(SharedRowRef(table: path.parent, key: try StoredJSON.text(of: value, encoder: encoder)))
    }

    /// The place of `row` as the pusher sees it: in its own data first, else in the data of
    /// the account with the lowest id that shares with it.
    private func place(of row: SharedRowRef) -> RowPlace? {
        if let claim = claims[row] { return places[row]?[claim.owner] }
        guard let candidates = places[row] else { return nil }
        return candidates[pusher] ?? candidates.min { $0.key < $1.key }?.value
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

    private mutating func decide(_ change: SyncWireChange, row: SharedRowRef, firstParent: SharedRowRef?, encoder: JSONEncoder) throws {
        let newParent = try Self.parent(setBy: change, sharing: sharing, encoder: encoder)
        if let first = refusedNewRows[row] { return refuse(change, row, pusher, first.reason, first.message) }
        guard let place = place(of: row) else {
            if let claim = claims[row] {
                // The device holds the row through a share whose account's data has no such row.
                return refuse(change, row, claim.owner, .notShared, Self.notSharedMessage)
            }
            return placeNew(change, row: row, parent: firstParent)
        }
        let owner = place.owner
        guard canWrite(owner, root: place.root) else {
            let (reason, message) = refusal(owner: owner, root: place.root)
            return refuse(change, row, owner, reason, message)
        }
        if case .some(let parent) = newParent, parent != place.parent {
            // A move: under a parent in the same account's data, writable there.
            let parentPlace = parent.flatMap { places[$0]?[owner] }
            if owner == pusher {
                if let parent, parentPlace == nil, let elsewhere = self.place(of: parent), elsewhere.owner != pusher {
                    return refuse(change, row, owner, .crossesAccounts, "the change moves the row into another account's data")
                }
            } else {
                guard let parentPlace else {
                    return refuse(change, row, owner, .crossesAccounts, "the change moves the row out of its account's data")
                }
                guard canWrite(owner, root: parentPlace.root) else {
                    let (reason, message) = refusal(owner: owner, root: parentPlace.root)
                    return refuse(change, row, owner, reason, message)
                }
            }
            places[row, default: [:]][owner] = RowPlace(owner: owner, parent: parent, root: parentPlace?.root)
            placements[owner, default: [:]][row, default: Placement(parent: parent, isNew: false)].parent = parent
        }
        store(change, row: row, in: owner)
    }

    /// A row the server has not placed: in its parent's account's data, or the pusher's.
    private mutating func placeNew(_ change: SyncWireChange, row: SharedRowRef, parent: SharedRowRef?) {
        let parentPlace = parent.flatMap { place(of: $0) }
        let owner = parentPlace?.owner ?? pusher
        if let parentPlace, !canWrite(owner, root: parentPlace.root) {
            let (reason, message) = refusal(owner: owner, root: parentPlace.root)
            refusedNewRows[row] = (reason, message)
            return refuse(change, row, pusher, reason, message)
        }
        let root = sharing.roots.contains(row.table) ? row.rootName : parentPlace?.root
        places[row, default: [:]][owner] = RowPlace(owner: owner, parent: parent, root: root)
        placements[owner, default: [:]][row] = Placement(parent: parent, isNew: true)
        store(change, row: row, in: owner)
    }

    /// Stores `change` in `owner`'s data under its table's name as the declaration spells it,
    /// so that the server finds a row's changes by the name it places the row under.
    private mutating func store(_ change: SyncWireChange, row: SharedRowRef, in owner: Int64) {
        var change = change
        change.table = sharing.canonicalName(of: change.table)
        stored[owner, default: []].append(change)
        sharedOwners.insert(owner)
        if owner != pusher, let root = places[row]?[owner]?.root { sharedRows[row] = ShareName(owner: owner, root: root) }
    }

    private mutating func refuse(
        _ change: SyncWireChange, _ row: SharedRowRef, _ owner: Int64, _ reason: SyncRefusal.Reason, _ message: String
    ) {
        refused.append(Refused(change: change, row: row, owner: owner, reason: reason, message: message))
    }
}
