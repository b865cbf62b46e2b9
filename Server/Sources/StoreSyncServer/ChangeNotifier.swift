import Foundation

/// Wakes the pulls that wait for an account's next change (long polls) in this process.
///
/// Each account has a generation that grows with every notification. A pull reads the
/// generation before it queries, and waits only while it is unchanged: a change committed
/// between the query and the wait is never missed.
actor ChangeNotifier {
    private var generations: [Int64: UInt64] = [:]
    private var waiters: [Int64: [UUID: CheckedContinuation<Void, Never>]] = [:]
    /// Waits that ended (by timeout or cancellation) before their continuation was registered;
    /// each is forgotten when its wait returns.
    private var ended: Set<UUID> = []

    /// The waits the notifier keeps anything of: those in progress, at most. A wait that
    /// returned is forgotten, or a process serving long polls for months would grow with them.
    var waitsHeld: Int { waiters.values.reduce(0) { $0 + $1.count } + ended.count }

    /// The account's current generation.
    func generation(of account: Int64) -> UInt64 { generations[account, default: 0] }

    /// The account has new changes: wakes its waiting pulls.
    func notify(account: Int64) {
        generations[account, default: 0] &+= 1
        for continuation in (waiters.removeValue(forKey: account) ?? [:]).values { continuation.resume() }
    }

    /// Any account may have new changes (the notification connection was re-established).
    func notifyAll() {
        for account in Set(generations.keys).union(waiters.keys) { notify(account: account) }
    }

    /// Returns once the account's generation is no longer `generation`, after `timeout`, or when
    /// the task is cancelled, whichever comes first.
    nonisolated func wait(account: Int64, after generation: UInt64, timeout: Duration) async {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.suspend(id, account: account, after: generation) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
            await self.end(id, account: account)
        }
        // Both halves are done: a mark that `end` left (a wait woken, or that found the
        // generation changed, before `end` ran) has no one left to read it.
        await forget(id)
    }

    private func suspend(_ id: UUID, account: Int64, after generation: UInt64) async {
        guard generations[account, default: 0] == generation, ended.remove(id) == nil else { return }
        await withCheckedContinuation { continuation in waiters[account, default: [:]][id] = continuation }
    }

    private func forget(_ id: UUID) { ended.remove(id) }

    private func end(_ id: UUID, account: Int64) {
        if let continuation = waiters[account]?.removeValue(forKey: id) {
            continuation.resume()
        } else {
            ended.insert(id)
        }
    }
}
