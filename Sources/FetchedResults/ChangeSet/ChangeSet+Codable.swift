import Foundation

/// Index paths are coded as arrays of their indexes (`[section, row]`), the
/// same on every platform (Foundation's own coding of `IndexPath` differs
/// between Darwin and Linux). Decoding goes through the memberwise
/// initializer, so decoded change sets are sorted like any other.
extension ChangeSet: Codable {
    private enum CodingKeys: String, CodingKey {
        case sectionDeletes, sectionInserts, deletes, inserts, moves, updates
    }

    /// Decodes a change set; missing arrays decode as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func decode<T: Decodable>(_ key: CodingKeys) throws -> [T] {
            try container.decodeIfPresent([T].self, forKey: key) ?? []
        }
        func decodePaths(_ key: CodingKeys) throws -> [IndexPath] {
            try decode(key).map(IndexPath.init(indexes:))
        }
        self.init(
            sectionDeletes: try decode(.sectionDeletes),
            sectionInserts: try decode(.sectionInserts),
            deletes: try decodePaths(.deletes),
            inserts: try decodePaths(.inserts),
            moves: try decode(.moves),
            updates: try decodePaths(.updates)
        )
    }

    /// Encodes every array, empty or not.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sectionDeletes, forKey: .sectionDeletes)
        try container.encode(sectionInserts, forKey: .sectionInserts)
        try container.encode(deletes.map(Array.init), forKey: .deletes)
        try container.encode(inserts.map(Array.init), forKey: .inserts)
        try container.encode(moves, forKey: .moves)
        try container.encode(updates.map(Array.init), forKey: .updates)
    }
}

extension ChangeSet.Move: Codable {
    private enum CodingKeys: String, CodingKey {
        case from, to, isChanged
    }

    /// Decodes a move; a missing `isChanged` decodes as `false`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            from: IndexPath(indexes: try container.decode([Int].self, forKey: .from)),
            to: IndexPath(indexes: try container.decode([Int].self, forKey: .to)),
            isChanged: try container.decodeIfPresent(Bool.self, forKey: .isChanged) ?? false
        )
    }

    /// Encodes the move with its index paths as `[section, row]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Array(from), forKey: .from)
        try container.encode(Array(to), forKey: .to)
        try container.encode(isChanged, forKey: .isChanged)
    }
}
