import Foundation
import SQLiteStoreSyncProtocol

/// Computes the next snapshot pages while the device reads the current one, so that a new
/// device's pages follow each other without waiting for PostgreSQL each time.
///
/// Once a page is computed for a request, the page after it is computed in the background and
/// kept, for the device's next request, which then only waits for what is left of it. As soon
/// as a page's computation knows where the page after it starts (PostgreSQL answered, the
/// server still writes the page), that page is started too, up to ``pagesAhead`` pages of one
/// snapshot: PostgreSQL's query of one page runs while the server writes the one before. A page is
/// a function of its account, cursor, position and limit: the log only grows and a snapshot
/// reads only the changes up to its cursor, so a kept page is the page the device would get by
/// asking PostgreSQL again. Nothing is kept for longer than ``keptFor``, nor beyond
/// ``byteBudget`` bytes of computed pages in all (the oldest go first); a page computed ahead
/// that failed or was dropped is computed again when asked for. The server stays stateless:
/// another process, or this one after a restart, computes the same pages.
actor SnapshotLookahead {
    /// A page's request: the same key, the same page.
    struct Key: Hashable, Sendable {
        let account: Int64
        let cursor: Int64
        /// Where the page starts: after this row (nil: at the snapshot's first).
        let position: SyncSnapshotPosition?
        let limit: Int
        /// The device's schema version: the page holds what it syncs.
        let schemaVersion: Int64

        /// The key of the page that starts after `position`, in the same snapshot.
        func next(at position: SyncSnapshotPosition) -> Key {
            Key(account: account, cursor: cursor, position: position, limit: limit, schemaVersion: schemaVersion)
        }

        /// Positions compare by their bytes: canonically equivalent keys are two rows.
        static func == (a: Key, b: Key) -> Bool {
            guard a.account == b.account, a.cursor == b.cursor, a.limit == b.limit, a.schemaVersion == b.schemaVersion else {
                return false
            }
            switch (a.position, b.position) {
            case (nil, nil): return true
            case (let p?, let q?): return p.table.hasSameUTF8(as: q.table) && p.key.hasSameUTF8(as: q.key)
            default: return false
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(account)
            hasher.combine(cursor)
            hasher.combine(limit)
            hasher.combine(schemaVersion)
            if let position {
                hasher.combine(position.table.utf8.count)
                for byte in position.table.utf8 { hasher.combine(byte) }
                for byte in position.key.utf8 { hasher.combine(byte) }
            }
        }
    }

    /// Computes `key`'s page, calling `nextKnown` with where the page after it starts as soon as
    /// that is known, before the page is done (not at all for a snapshot's last page).
    typealias Compute =
        @Sendable (
            _ key: Key, _ nextKnown: @escaping @Sendable (SyncSnapshotPosition) async -> Void
        ) async throws -> SnapshotPageBody

    /// The most pages of one snapshot computed ahead or kept: the one the device asks for next,
    /// and the one after it.
    static let pagesAhead = 2

    private struct Entry {
        let task: Task<SnapshotPageBody, any Error>
        let started: ContinuousClock.Instant
        /// The page's size once computed.
        var bytes: Int?
        /// Where the page after it starts, once its computation knows.
        var next: SyncSnapshotPosition?
    }

    private let compute: Compute
    /// The most bytes of computed pages kept.
    let byteBudget: Int
    /// How long a page computed ahead waits for its request.
    let keptFor: Duration
    private var entries: [Key: Entry] = [:]

    /// A lookahead that computes pages with `compute`: a budget of 0 computes none ahead.
    init(byteBudget: Int, keptFor: Duration = .seconds(30), compute: @escaping Compute) {
        self.byteBudget = byteBudget
        self.keptFor = keptFor
        self.compute = compute
    }

    /// The page for `key`: the one computed ahead if there is one, else computed now; then
    /// starts computing the pages after it.
    func page(_ key: Key) async throws -> SnapshotPageBody {
        let page: SnapshotPageBody
        if let ahead = entries.removeValue(forKey: key), let computed = try? await ahead.task.value {
            page = computed
        } else {
            page = try await compute(key) { next in await self.computeAhead(key.next(at: next)) }
        }
        if let next = page.next { computeAhead(key.next(at: next)) }
        return page
    }

    /// Whether a page computed ahead for `key` is kept, computed.
    func holds(_ key: Key) -> Bool { entries[key]?.bytes != nil }

    /// Whether `key`'s page is being computed ahead or kept, computed.
    func isAhead(_ key: Key) -> Bool { entries[key] != nil }

    /// Starts computing `key`'s page unless it is kept or under way, or its snapshot has
    /// ``pagesAhead`` pages ahead already; for a kept page whose next one is known, goes on with that.
    private func computeAhead(_ key: Key) {
        if let entry = entries[key] {
            if let next = entry.next { computeAhead(key.next(at: next)) }
            return
        }
        let sameSnapshot = entries.keys.count { $0.account == key.account && $0.cursor == key.cursor && $0.limit == key.limit }
        guard byteBudget > 0, sameSnapshot < Self.pagesAhead else { return }
        let compute = compute
        let started = ContinuousClock.Instant.now
        let task = Task {
            let page = try await compute(key) { next in await self.nextKnown(after: key, started: started, at: next) }
            self.computed(key, started: started, bytes: page.json.count)
            return page
        }
        entries[key] = Entry(task: task, started: started)
        Task { [keptFor] in
            try? await Task.sleep(until: started + keptFor)
            self.expire(key, started: started)
        }
    }

    /// Records where the page after the one started at `started` for `key` starts, and starts
    /// computing it (``computeAhead(_:)``).
    private func nextKnown(after key: Key, started: ContinuousClock.Instant, at next: SyncSnapshotPosition) {
        if entries[key]?.started == started { entries[key]?.next = next }
        computeAhead(key.next(at: next))
    }

    /// Records the size of the page started at `started` for `key`, unless a request took it
    /// or it expired, then drops the oldest pages while their sizes exceed the budget.
    private func computed(_ key: Key, started: ContinuousClock.Instant, bytes: Int) {
        guard entries[key]?.started == started else { return }
        entries[key]?.bytes = bytes
        var kept = entries.values.reduce(0) { $0 + ($1.bytes ?? 0) }
        let oldestFirst = entries.filter { $0.value.bytes != nil }.sorted { $0.value.started < $1.value.started }
        for (oldest, entry) in oldestFirst where kept > byteBudget {
            kept -= entry.bytes ?? 0
            entries.removeValue(forKey: oldest)
        }
    }

    /// Drops the page started at `started` for `key` if no request took it, stopping its computation.
    private func expire(_ key: Key, started: ContinuousClock.Instant) {
        guard let entry = entries[key], entry.started == started else { return }
        entry.task.cancel()
        entries.removeValue(forKey: key)
    }
}
