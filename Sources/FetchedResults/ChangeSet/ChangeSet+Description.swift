import Foundation

extension ChangeSet: CustomStringConvertible {
    /// A compact summary listing only the non-empty parts, index paths as
    /// `section.row`, e.g. `ChangeSet(sectionInserts: [2], deletes: [0.3],
    /// moves: [0.1→1.0 changed], updates: [0.4])`, or `ChangeSet(empty)`.
    public var description: String {
        let parts = [
            part("sectionDeletes", sectionDeletes.map(String.init)),
            part("sectionInserts", sectionInserts.map(String.init)),
            part("deletes", deletes.map(\.listDescription)),
            part("inserts", inserts.map(\.listDescription)),
            part("moves", moves.map(\.description)),
            part("updates", updates.map(\.listDescription)),
        ].compactMap { $0 }
        return "ChangeSet(\(parts.isEmpty ? "empty" : parts.joined(separator: ", ")))"
    }

    private func part(_ label: String, _ items: [String]) -> String? {
        items.isEmpty ? nil : "\(label): [\(items.joined(separator: ", "))]"
    }
}

extension ChangeSet.Move: CustomStringConvertible {
    /// `from→to`, followed by `changed` when the row's values changed.
    public var description: String {
        "\(from.listDescription)→\(to.listDescription)\(isChanged ? " changed" : "")"
    }
}
