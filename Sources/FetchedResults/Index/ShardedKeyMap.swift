import SQLiteStoreCore

/// Rowid → sort keys, split into many small dictionaries so that a copy of the map (each
/// delivered result shares it) costs little when one side then changes a few rows: only the
/// shards those rows live in are copied.
///
/// A row whose only sort key is REAL or INTEGER (the common case) keeps it unboxed, in a
/// 16-byte bucket instead of a 40-byte `SortKeys` one; other rows keep their `SortKeys`.
struct ShardedKeyMap: Sendable {
    /// The rows of one shard; a row is in exactly one of the three dictionaries.
    private struct Shard: Sendable {
        var reals: [Int64: Double] = [:]
        var integers: [Int64: Int64] = [:]
        var others: [Int64: SortKeys] = [:]
    }

    private static let shardCount = 1024
    private var shards = [Shard](repeating: Shard(), count: shardCount)
    private(set) var count = 0

    private static func shard(_ rowID: Int64) -> Int { Int(UInt64(bitPattern: rowID) % UInt64(shardCount)) }

    subscript(rowID: Int64) -> SortKeys? {
        let index = Self.shard(rowID)
        if let real = shards[index].reals[rowID] { return SortKeys(single: .real(real)) }
        if let integer = shards[index].integers[rowID] { return SortKeys(single: .integer(integer)) }
        return shards[index].others[rowID]
    }

    mutating func set(_ keys: SortKeys, for rowID: Int64) {
        remove(rowID)
        count += 1
        let index = Self.shard(rowID)
        switch keys.first {
        case .real(let real) where keys.rest.isEmpty: shards[index].reals[rowID] = real
        case .integer(let integer) where keys.rest.isEmpty: shards[index].integers[rowID] = integer
        default: shards[index].others[rowID] = keys
        }
    }

    mutating func remove(_ rowID: Int64) {
        let index = Self.shard(rowID)
        let removed = shards[index].reals.removeValue(forKey: rowID) != nil
            || shards[index].integers.removeValue(forKey: rowID) != nil
            || shards[index].others.removeValue(forKey: rowID) != nil
        if removed { count -= 1 }
    }
}
