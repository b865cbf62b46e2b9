import Store

/// Rowid → sort keys, split into many small dictionaries so that a copy of the map (each
/// delivered result shares it) costs little when one side then changes a few rows: only the
/// shards those rows live in are copied.
struct ShardedKeyMap: Sendable {
    private static let shardCount = 1024
    private var shards = [[Int64: SortKeys]](repeating: [:], count: shardCount)
    private(set) var count = 0

    private static func shard(_ rowID: Int64) -> Int { Int(UInt64(bitPattern: rowID) % UInt64(shardCount)) }

    subscript(rowID: Int64) -> SortKeys? { shards[Self.shard(rowID)][rowID] }

    mutating func set(_ keys: SortKeys, for rowID: Int64) {
        if shards[Self.shard(rowID)].updateValue(keys, forKey: rowID) == nil { count += 1 }
    }

    mutating func remove(_ rowID: Int64) {
        if shards[Self.shard(rowID)].removeValue(forKey: rowID) != nil { count -= 1 }
    }
}
