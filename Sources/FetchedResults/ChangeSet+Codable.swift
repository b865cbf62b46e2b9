import Foundation

/// Decoding goes through the memberwise initializer, so decoded change sets
/// are sorted like any other.
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
        self.init(
            sectionDeletes: try decode(.sectionDeletes),
            sectionInserts: try decode(.sectionInserts),
            deletes: try decode(.deletes),
            inserts: try decode(.inserts),
            moves: try decode(.moves),
            updates: try decode(.updates)
        )
    }

    /// Encodes every array, empty or not.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sectionDeletes, forKey: .sectionDeletes)
        try container.encode(sectionInserts, forKey: .sectionInserts)
        try container.encode(deletes, forKey: .deletes)
        try container.encode(inserts, forKey: .inserts)
        try container.encode(moves, forKey: .moves)
        try container.encode(updates, forKey: .updates)
    }
}
