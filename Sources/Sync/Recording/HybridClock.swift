import SQLiteStoreCore

/// The device's hybrid logical clock, its last reading kept in `store_sync_meta` so that it
/// never goes back, not even across restarts or a wall clock set back.
struct HybridClock {
    let physicalClock: @Sendable () -> Int64
    private static let key = "clock"

    /// A reading greater than every earlier one and every timestamp observed; saved in the transaction.
    func tick(in db: Database) throws -> HybridTimestamp {
        let last = try lastReading(in: db)
        let now = physicalClock()
        let next =
            now > last.milliseconds
            ? HybridTimestamp(milliseconds: now, counter: 0)
            : last.counter < 0xFFFF
                ? HybridTimestamp(milliseconds: last.milliseconds, counter: last.counter + 1)
                : HybridTimestamp(milliseconds: last.milliseconds + 1, counter: 0)
        try SyncStorage.setMeta(Self.key, .integer(next.rawValue), in: db)
        return next
    }

    /// Moves the clock past a remote timestamp, however far ahead its device's clock is, so
    /// that what is written here next is ordered after it.
    func observe(_ remote: HybridTimestamp, in db: Database) throws {
        guard remote > (try lastReading(in: db)) else { return }
        try SyncStorage.setMeta(Self.key, .integer(remote.rawValue), in: db)
    }

    private func lastReading(in db: Database) throws -> HybridTimestamp {
        guard case .integer(let raw)? = try SyncStorage.meta(Self.key, in: db) else { return HybridTimestamp(rawValue: 0) }
        return HybridTimestamp(rawValue: raw)
    }
}
