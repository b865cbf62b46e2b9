import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Follows one controller as an independent consumer would: it replays every delivered
/// change set onto the results it last saw and compares them with a fresh SQL read: the
/// request's own SQL, or an `oracle` the test writes.
@MainActor final class ReplayChecker<M: StoreModel> {
    let controller: FetchedResultsController<M>
    /// The change sets delivered since the last `check`.
    private(set) var delivered: [ChangeSet] = []
    private var pending: [FetchedResultsChange] = []
    private var shown: SectionedSnapshot<ObjectID>
    /// The results as the test's own SQL reads them, if it gives any.
    private let oracle: (@Sendable (Database) throws -> SectionedSnapshot<ObjectID>)?

    /// Starts following `controller`, which must have fetched; `oracle` reads the expected
    /// results (by default, the request's SQL).
    init(_ controller: FetchedResultsController<M>, oracle: (@Sendable (Database) throws -> SectionedSnapshot<ObjectID>)? = nil) {
        self.controller = controller
        self.oracle = oracle
        shown = controller.results.sectionedSnapshot()
        controller.didChange = { [unowned self] change in pending.append(change) }
    }

    /// Waits for the controller, then replays what it delivered; records an issue and returns
    /// `false` at the first mismatch with SQLite. `delivered` holds the change sets.
    @discardableResult
    func check(
        _ store: Store, _ context: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Bool {
        await controller.waitForChanges()
        if let failure = controller.failure {
            Issue.record("\(context()): the controller stopped: \(failure)", sourceLocation: sourceLocation)
            return false
        }
        delivered = pending.map(\.changeSet)
        var replayed = shown
        for change in pending {
            #expect(!change.changeSet.isEmpty, "empty change set delivered \(context())", sourceLocation: sourceLocation)
            let new = change.results.sectionedSnapshot()
            do {
                replayed = try change.changeSet.applied(to: replayed, new: new)
            } catch {
                let fresh = try expected(store)
                Issue.record(
                    "\(context()): \(error) in \(change.changeSet) from \(replayed) to \(new) (fresh: \(fresh)); index sections \(zip(controller.results.index.sections, controller.results.index.sectionCounts.all).map { "\($0.value): \($0.name ?? "nil") × \($1)" })",
                    sourceLocation: sourceLocation)
                return false
            }
        }
        pending = []
        let fresh = try expected(store)
        guard replayed.isExactly(fresh), controller.results.sectionedSnapshot().isExactly(fresh) else {
            Issue.record(
                "\(context()): replayed \(replayed) (names \(replayed.nameBytes)) != fresh \(fresh) (names \(fresh.nameBytes))",
                sourceLocation: sourceLocation)
            return false
        }
        shown = replayed
        return true
    }

    /// The results as they should be now.
    private func expected(_ store: Store) throws -> SectionedSnapshot<ObjectID> {
        guard let oracle else { return try store.freshSnapshot(controller.request) }
        return try store.read { db in try oracle(db) }
    }
}
