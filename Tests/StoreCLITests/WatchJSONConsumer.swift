// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation

/// What a third-party program does with `store watch --json`: keeps the sections it was
/// told about and applies each change line to them, as the command's help describes.
struct WatchJSONConsumer: Equatable {
    struct Section: Equatable {
        var name: String?
        var ids: [Int64]
    }

    enum Failure: Error, CustomStringConvertible {
        case badLine(String)
        var description: String {
            switch self {
            case .badLine(let line): "cannot apply: \(line)"
            }
        }
    }

    private(set) var sections: [Section] = []
    private(set) var changeCount = 0

    /// Applies one line of output.
    mutating func apply(_ line: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { throw Failure.badLine(line) }
        switch object["type"] as? String {
        case "initial":
            sections = try (object["sections"] as? [[String: Any]] ?? []).map { section in
                guard let ids = section["ids"] as? [Int] else { throw Failure.badLine(line) }
                return Section(name: section["name"] as? String, ids: ids.map(Int64.init))
            }
        case "change":
            try applyChange(object, line: line)
            changeCount += 1
        default:
            throw Failure.badLine(line)
        }
    }

    private mutating func applyChange(_ change: [String: Any], line: String) throws {
        func paths(_ value: Any?) throws -> [[Int]] {
            guard let paths = value as? [[Int]], paths.allSatisfy({ $0.count == 2 }) else { throw Failure.badLine(line) }
            return paths
        }
        guard let sectionDeletes = change["sectionDeletes"] as? [Int],
            let sectionInserts = change["sectionInserts"] as? [[String: Any]],
            let inserts = change["inserts"] as? [[String: Any]],
            let moves = change["moves"] as? [[String: Any]]
        else { throw Failure.badLine(line) }
        let moveSources = try paths(moves.map { $0["from"] as Any })
        let moveTargets = try paths(moves.map { $0["to"] as Any })
        _ = try paths(change["updates"])
        // Remove rows (deletes and move sources, old coordinates), then deleted sections.
        let movedIDs = try moveSources.map { path in try id(at: path, line: line) }
        for path in (try paths(change["deletes"]) + moveSources).sorted(by: { $0.lexicographicallyPrecedes($1) }).reversed() {
            _ = try id(at: path, line: line)
            sections[path[0]].ids.remove(at: path[1])
        }
        for index in sectionDeletes.sorted().reversed() {
            guard sections.indices.contains(index) else { throw Failure.badLine(line) }
            sections.remove(at: index)
        }
        // Insert sections, then rows and move destinations (new coordinates), ascending.
        for section in sectionInserts.sorted(by: { ($0["at"] as? Int ?? -1) < ($1["at"] as? Int ?? -1) }) {
            guard let at = section["at"] as? Int, at <= sections.count else { throw Failure.badLine(line) }
            sections.insert(Section(name: section["name"] as? String, ids: []), at: at)
        }
        let insertedIDs = try inserts.map { insert -> ([Int], Int64) in
            guard let id = insert["id"] as? Int else { throw Failure.badLine(line) }
            return (try paths([insert["at"] as Any])[0], Int64(id))
        }
        let arrivals = insertedIDs + zip(moveTargets, movedIDs).map { ($0, $1) }
        for (path, id) in arrivals.sorted(by: { $0.0.lexicographicallyPrecedes($1.0) }) {
            guard sections.indices.contains(path[0]), path[1] <= sections[path[0]].ids.count else { throw Failure.badLine(line) }
            sections[path[0]].ids.insert(id, at: path[1])
        }
    }

    private func id(at path: [Int], line: String) throws -> Int64 {
        guard sections.indices.contains(path[0]), sections[path[0]].ids.indices.contains(path[1]) else { throw Failure.badLine(line) }
        return sections[path[0]].ids[path[1]]
    }
}
#endif
