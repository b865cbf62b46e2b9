import Foundation
import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// Hands the refusals a store records to the streams of ``StoreSync/refusals()``, once the
/// transaction that recorded them has committed.
final class SyncRefusalFeed: Sendable {
    private let continuations = Locked<[UUID: AsyncStream<SyncRefusal>.Continuation]>([:])

    /// A stream of the refusals posted from now on.
    func stream() -> AsyncStream<SyncRefusal> {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncRefusal.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuations.withLock { $0[id] = continuation }
        continuation.onTermination = { [continuations] _ in continuations.withLock { $0[id] = nil } }
        return stream
    }

    /// Gives `refusals` to every stream.
    func post(_ refusals: [SyncRefusal]) {
        guard !refusals.isEmpty else { return }
        for continuation in continuations.current.values {
            for refusal in refusals { continuation.yield(refusal) }
        }
    }
}
